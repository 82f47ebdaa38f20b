// Two bundles: the extension (Node, CommonJS, `vscode` external) and the webview (browser, IIFE).
// The CLI is a third Node bundle so that `npx lesson-companion` needs no TypeScript at run time.
import * as esbuild from 'esbuild';
import { writeSchema } from './scripts/write-schema.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

// jsonc-parser's UMD main hides its requires from esbuild; its ESM build bundles cleanly.
const common = { bundle: true, mainFields: ['module', 'main'], sourcemap: !production, minify: production, logLevel: 'info' };

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20' },
  // The engine worker: runs a pack's model, under Node's permission model (src/node/engine/host.ts).
  { ...common, entryPoints: ['src/node/engine/worker.ts'], outfile: 'dist/engine.js', platform: 'node', format: 'cjs', target: 'node20' },
  { ...common, entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

// media/lesson.schema.json is generated from the TypeBox schema so that it never drifts from the validator.
await writeSchema();

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
