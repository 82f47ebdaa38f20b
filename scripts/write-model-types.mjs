// Writes media/model.d.ts, the reference-model types a pack's model imports as `lesson-companion/model`
// (package.json `exports` and `typesVersions`), from src/core/model/model.ts by TypeScript's declaration
// emit, so the types packs see are the engine's own. test/unit/modelTypes.test.ts fails when the committed
// file is stale; `node scripts/write-model-types.mjs` rewrites it.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MODEL_SOURCE = path.join(root, 'src/core/model/model.ts');
export const MODEL_TYPES = path.join(root, 'media/model.d.ts');

const HEADER = `// The types of a lesson pack's reference model: \`import type { ReferenceModel } from 'lesson-companion/model'\`.
// Generated from src/core/model/model.ts by scripts/write-model-types.mjs; do not edit. See docs/authoring.md.
`;

/** The declaration file's text: tsc --declaration --emitDeclarationOnly on model.ts, in memory. */
export function modelTypesText() {
  const ts = createRequire(import.meta.url)('typescript');
  let text;
  const program = ts.createProgram([MODEL_SOURCE], { declaration: true, emitDeclarationOnly: true, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true, noLib: false });
  const result = program.emit(undefined, (file, data) => {
    if (file.endsWith('.d.ts')) text = data;
  });
  if (result.emitSkipped || text === undefined) throw new Error(`no declarations emitted for ${MODEL_SOURCE}`);
  return HEADER + text;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = modelTypesText();
  const current = await fs.readFile(MODEL_TYPES, 'utf8').catch(() => '');
  if (process.argv.includes('--check')) {
    if (current !== text) {
      process.stderr.write(`${path.relative(root, MODEL_TYPES)} is stale: run \`node scripts/write-model-types.mjs\` and commit it.\n`);
      process.exit(1);
    }
  } else if (current !== text) {
    await fs.writeFile(MODEL_TYPES, text);
    process.stdout.write(`wrote ${path.relative(root, MODEL_TYPES)}\n`);
  }
}
