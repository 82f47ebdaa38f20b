// The build scripts' one way to use the TypeScript in src/ without a TypeScript runtime: the modules bundled by
// esbuild in memory and evaluated here, their exports returned. Nothing is written anywhere.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The exports of `source` (TypeScript, its imports relative to the project's root), or of the file `entry`; with
 * `options` added to the build (a plugin, an inject).
 */
export async function fromSource({ source, entry, options = {} }) {
  const result = await esbuild.build({
    ...(entry
      ? { entryPoints: [path.join(root, entry)] }
      : { stdin: { contents: source, resolveDir: root, loader: 'ts' } }),
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
    ...options,
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', result.outputFiles[0].text)(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  return module.exports;
}
