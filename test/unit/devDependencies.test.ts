/**
 * Every devDependency is used: imported by the sources, tests, scripts or configs, run as a tool by an npm script,
 * the types of a package that is, or a Stryker plugin its config names. An unused one still costs every install
 * (web-tree-sitter stayed after the repair search moved to @vscode/tree-sitter-wasm's own runtime).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Stryker loads its plugins by the names its config gives ('mocha', 'typescript'), never by import. */
const STRYKER_PLUGINS: Record<string, RegExp> = {
  '@stryker-mutator/mocha-runner': /testRunner: 'mocha'/,
  '@stryker-mutator/typescript-checker': /\['typescript'\]/,
};
/** Types the compiler takes without an import: Node's, mocha's globals, the VS Code API's module 'vscode'. */
const AMBIENT_TYPES = new Set(['node', 'mocha', 'vscode']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'fixtures' && entry.name !== 'node_modules') out.push(...sourceFiles(rel));
    } else if (/\.(ts|mjs|cjs|js|sh)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

const configs = ['esbuild.mjs', 'eslint.config.mjs', 'stryker.config.mjs', 'stryker.packs.config.mjs', '.mocharc.js'];
const code = [...['src', 'test', 'scripts'].flatMap(sourceFiles), ...configs]
  .map((file) => fs.readFileSync(path.join(root, file), 'utf8'))
  .join('\n');
const scripts = Object.values(pkg.scripts).join('\n');

function imported(name: string): boolean {
  const escaped = name.replace(/[/.]/g, '\\$&');
  return new RegExp(`['"\`]${escaped}(/[^'"\`]*)?['"\`]`).test(code);
}

function runAsTool(name: string): boolean {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bins = typeof manifest.bin === 'string' ? [name.split('/').pop()!] : Object.keys(manifest.bin ?? {});
  return bins.some((bin) => new RegExp(`(^|[\\s;&|])(npx )?${bin.replace(/[.]/g, '\\.')}\\s`, 'm').test(scripts));
}

function used(name: string): boolean {
  if (name.startsWith('@types/')) {
    const typed = name.slice('@types/'.length);
    return AMBIENT_TYPES.has(typed) || imported(typed);
  }
  const plugin = STRYKER_PLUGINS[name];
  if (plugin) return plugin.test(code);
  return imported(name) || runAsTool(name);
}

describe('package.json: devDependencies', () => {
  it('lists only packages something imports or runs', () => {
    const unused = Object.keys(pkg.devDependencies).filter((name) => !used(name));
    assert.deepEqual(unused, []);
  });
});
