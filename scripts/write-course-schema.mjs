// Writes media/course.schema.json from the TypeBox schema in src/core/course/course.ts (the editor's schema for
// course.json, as write-schema.mjs writes lesson.json's). test/unit/course.test.ts fails when the file is stale.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const result = await esbuild.build({
  entryPoints: [path.join(root, 'src/core/course/course.ts')],
  bundle: true,
  write: false,
  format: 'cjs',
  platform: 'node',
  logLevel: 'silent',
});
const module = { exports: {} };
new Function('module', 'exports', 'require', result.outputFiles[0].text)(
  module,
  module.exports,
  createRequire(import.meta.url),
);
await fs.writeFile(path.join(root, module.exports.COURSE_SCHEMA_FILE), module.exports.courseJsonSchemaText());
process.stdout.write(`wrote ${module.exports.COURSE_SCHEMA_FILE}\n`);
