// Writes media/lesson.schema.json from the TypeBox schema in src/core/pack/schema.ts, so the schema authors
// see in the editor is the one the engine validates with. Run by esbuild.mjs on every build;
// `node scripts/write-schema.mjs --check` exits 1 when the committed file is stale.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromSource, root } from './from-source.mjs';

/** The schema text, computed by bundling src/worlds/templates/lessonJson.ts in memory (no TypeScript runtime needed). */
export async function schemaText() {
  const schema = await fromSource({ entry: 'src/worlds/templates/lessonJson.ts' });
  return { text: schema.lessonJsonSchemaText(), file: path.join(root, schema.LESSON_SCHEMA_FILE) };
}

export async function writeSchema() {
  const { text, file } = await schemaText();
  const current = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (current === text) return false;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const { text, file } = await schemaText();
    const current = await fs.readFile(file, 'utf8').catch(() => '');
    if (current !== text) {
      process.stderr.write(
        `${path.relative(root, file)} is stale: run \`node scripts/write-schema.mjs\` (or npm run build) and commit it.\n`,
      );
      process.exit(1);
    }
  } else if (await writeSchema()) {
    process.stdout.write('wrote media/lesson.schema.json\n');
  }
}
