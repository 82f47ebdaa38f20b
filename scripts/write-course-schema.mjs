// Writes media/course.schema.json from the TypeBox schema in src/core/course/course.ts (the editor's schema for
// course.json, as write-schema.mjs writes lesson.json's). test/unit/course.test.ts fails when the file is stale.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fromSource, root } from './from-source.mjs';

const course = await fromSource({ entry: 'src/core/course/course.ts' });
await fs.writeFile(path.join(root, course.COURSE_SCHEMA_FILE), course.courseJsonSchemaText());
process.stdout.write(`wrote ${course.COURSE_SCHEMA_FILE}\n`);
