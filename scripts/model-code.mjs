// The built-in lessons' model files, transpiled at build time as the check would transpile them at run time
// (src/node/engine/modelCache.ts: the same transpiler, options and key), for esbuild.mjs to put inside the CLI's
// and the check service's bundles: a command-line check of a built-in lesson then loads no transpiler. The code is
// the tool's own, shipped in its bundles; nothing is written anywhere. A model file edited since the build has
// another key and is transpiled at run time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fromSource, root } from './from-source.mjs';

/** modelCodeKey and transformModule, from src. */
const transpiler = () =>
  fromSource({
    source: [
      `export { modelCodeKey } from './src/node/engine/modelCache';`,
      `export { transformModule } from './src/node/languages/transpile';`,
    ].join('\n'),
  });

/** Every .ts/.js file under each built-in lesson's model folder, transpiled: key → CommonJS code. */
export async function builtInModelCode() {
  const { modelCodeKey, transformModule } = await transpiler();
  const code = {};
  const lessons = path.join(root, 'lessons');
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(?:[cm]?ts|[cm]?js)$/.test(entry.name)) {
        const source = fs.readFileSync(full, 'utf8');
        const result = transformModule(source, full);
        if ('code' in result) code[modelCodeKey(full, source)] = result.code;
      }
    }
  };
  for (const lesson of fs.readdirSync(lessons, { withFileTypes: true })) {
    const model = path.join(lessons, lesson.name, 'model');
    if (lesson.isDirectory() && fs.existsSync(model)) walk(model);
  }
  return code;
}
