// npm run package: the VSIX, from the files `.vscodeignore` lets through (its allowlist).
//
// package.json also has `files` (what `npm pack` publishes), and vsce refuses to package a folder that has both
// (it would not say which one wins). So the files `vsce ls` lists are copied into an empty folder, with a
// package.json that has no `files`, and packaged there: the VSIX holds exactly what `vsce ls` lists here.
//
//   node scripts/package-vsix.mjs [--out <file.vsix>]      (npm run package builds in production mode first)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VSCE = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const outArg = process.argv.indexOf('--out');
const out = path.resolve(outArg > 0 ? process.argv[outArg + 1] : `${manifest.name}-${manifest.version}.vsix`);

const vsce = (args, cwd) =>
  execFileSync(process.execPath, [VSCE, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

/** The files the VSIX holds, as `vsce ls` lists them from `.vscodeignore`. */
const listed = vsce(['ls', '--no-dependencies'], ROOT)
  .split('\n')
  .map((line) => line.trim())
  .filter(Boolean);

const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-vsix-stage-'));
try {
  for (const file of listed) {
    fs.mkdirSync(path.join(stage, path.dirname(file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(stage, file));
  }
  const { files: _published, ...forVsce } = manifest;
  fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(forVsce, null, 2)}\n`);
  fs.copyFileSync(path.join(ROOT, '.vscodeignore'), path.join(stage, '.vscodeignore'));
  vsce(
    ['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out],
    stage,
  );
  process.stdout.write(`${path.relative(process.cwd(), out)}: ${listed.length} files\n`);
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
