// Two bundles: the extension (Node, CommonJS, `vscode` external) and the webview (browser, IIFE).
// The CLI is a third Node bundle so that `npx lesson-companion` needs no TypeScript at run time.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { writeSchema } from './scripts/write-schema.mjs';
import { builtInModelCode } from './scripts/model-code.mjs';
import { makeAsciiOnly } from './scripts/ascii-only.mjs';
import { SCHEMA_CHECKS, schemaChecksPlugin } from './scripts/schema-checks.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

// jsonc-parser's UMD main hides its requires from esbuild; its ESM build bundles cleanly.
const common = {
  bundle: true,
  mainFields: ['module', 'main'],
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

/**
 * Heavy libraries used by few commands are bundled on their own (dist/vendor-*.js) and loaded from there on
 * first use: every process pays to compile the code it is given, and scslre's automata library is 1.3 MB
 * that only validate, bundle and install need. The module's name resolves to a stub that requires the file.
 */
const VENDORED = {
  scslre: 'vendor-scslre.js',
  sucrase: 'vendor-sucrase.js',
  'markdown-it': 'vendor-markdown-it.js',
  xmlbuilder: 'vendor-xmlbuilder.js',
  yauzl: 'vendor-yauzl.js',
  yazl: 'vendor-yazl.js',
};
const vendored = {
  name: 'vendored',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${Object.keys(VENDORED).join('|')})$`) }, (args) => ({
      path: args.path,
      namespace: 'vendored',
    }));
    build.onLoad({ filter: /.*/, namespace: 'vendored' }, (args) => ({
      contents: `module.exports = require(require('path').join(__dirname, ${JSON.stringify(VENDORED[args.path])}));`,
      loader: 'js',
    }));
  },
};

/** The schemas' checkers (lesson.json, a template scenario), generated now and injected into the Node bundles. */
const schemaChecks = await schemaChecksPlugin();

/**
 * The built-in lessons' models, transpiled now, inside the bundles that transpile models for the engine worker
 * (src/node/engine/modelCache.ts): a check of a built-in lesson loads no transpiler. One JSON text, parsed once.
 */
const modelCode = { LESSON_COMPANION_BUILT_IN_MODEL_CODE: JSON.stringify(JSON.stringify(await builtInModelCode())) };

/** The bundles the CLI's launcher starts, each with V8's code beside it. */
const CLI_BUNDLES = ['dist/cli-main.js', 'dist/cli-lessons.js'];

const builds = [
  ...Object.entries(VENDORED).map(([name, file]) => ({
    ...common,
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: '.' },
    outfile: `dist/${file}`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: false,
  })),
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [vendored, schemaChecks],
    inject: [SCHEMA_CHECKS],
  },
  // The CLI: dist/cli.js is a small launcher that starts dist/cli-main.js or dist/cli-lessons.js (src/cli/launcher.ts).
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli-main.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [vendored, schemaChecks],
    inject: [SCHEMA_CHECKS],
    define: modelCode,
  },
  // `lessons` alone (src/cli/lessonsMain.ts), which the launcher starts for that command: a quarter of the code.
  {
    ...common,
    entryPoints: ['src/cli/lessonsMain.ts'],
    outfile: 'dist/cli-lessons.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [vendored, schemaChecks],
    inject: [SCHEMA_CHECKS],
  },
  {
    ...common,
    entryPoints: ['src/cli/launcher.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  // The engine worker: runs a pack's model, under Node's permission model (src/node/engine/host.ts).
  {
    ...common,
    entryPoints: ['src/node/engine/worker.ts'],
    outfile: 'dist/engine.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [vendored, schemaChecks],
    inject: [SCHEMA_CHECKS],
  },
  // The resident check service the editor speaks JSON-RPC to (src/node/service/server.ts).
  {
    ...common,
    entryPoints: ['src/node/service/server.ts'],
    outfile: 'dist/service.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [vendored, schemaChecks],
    inject: [SCHEMA_CHECKS],
    define: modelCode,
  },
  // The queue world balancer packs import as `lesson-companion/worlds/queues` (src/node/engine/modelLoader.ts): pack code, loaded by the model loader.
  {
    ...common,
    bundle: false,
    sourcemap: false,
    entryPoints: ['src/worlds/queues.ts'],
    outfile: 'dist/worlds/queues.js',
    platform: 'neutral',
    format: 'cjs',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

/**
 * The repair search's parser (src/node/repair/parser.ts): the tree-sitter runtime VS Code ships and only the
 * three grammars lessons are written in, copied as they are (loaded on the first "Show a fix", never bundled).
 */
const TREE_SITTER = [
  'tree-sitter.js',
  'tree-sitter.wasm',
  'tree-sitter-python.wasm',
  'tree-sitter-javascript.wasm',
  'tree-sitter-typescript.wasm',
];
const treeSitterDir = path.dirname(createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm'));
fs.mkdirSync('dist/tree-sitter', { recursive: true });
for (const file of TREE_SITTER) fs.copyFileSync(path.join(treeSitterDir, file), path.join('dist/tree-sitter', file));

// media/lesson.schema.json is generated from the TypeBox schema so that it never drifts from the validator.
await writeSchema();

if (watch) {
  // A rebuilt bundle is compiled from source: its code cache is written by a full build only (src/cli/codeCache.ts).
  for (const bundle of CLI_BUNDLES) fs.rmSync(`${bundle}.v8cache`, { force: true });
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // Before the code cache, which is made from the very bytes the launcher reads. A watch build skips it (slower
  // to start, the same code).
  makeAsciiOnly(builds.filter((b) => b.platform === 'node' && b.outfile).map((b) => b.outfile));
  await writeCliCodeCache();
}

/**
 * V8's code for each of the CLI's bundles, beside it, made in a Node of its own by the very code the launcher reads it
 * with (src/cli/codeCache.ts, bundled for this step only).
 */
async function writeCliCodeCache() {
  const [tool] = (
    await esbuild.build({
      ...common,
      entryPoints: ['src/cli/codeCache.ts'],
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      sourcemap: false,
      logLevel: 'warning',
    })
  ).outputFiles;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lesson-companion-build-'));
  try {
    const file = path.join(dir, 'codeCache.cjs');
    fs.writeFileSync(file, tool.text);
    for (const bundle of CLI_BUNDLES)
      execFileSync(
        process.execPath,
        ['-e', `require(${JSON.stringify(file)}).writeCodeCache(${JSON.stringify(path.resolve(bundle))})`],
        { stdio: 'inherit' },
      );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
