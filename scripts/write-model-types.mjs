// Writes the declaration files a pack's model imports, by TypeScript's declaration emit, so the types packs
// see are the engine's own:
// - media/model.d.ts, the reference-model types (`lesson-companion/model`), from src/core/model/model.ts;
// - media/worlds/queues.d.ts, the queue world (`lesson-companion/worlds/queues`), from src/worlds/queues.ts,
//   its import of the model types pointed at `lesson-companion/model` as a pack sees them.
// package.json's `exports` and `typesVersions` name both. test/unit/modelTypes.test.ts fails when a committed
// file is stale; `node scripts/write-model-types.mjs` rewrites them.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MODEL_SOURCE = path.join(root, 'src/core/model/model.ts');
export const MODEL_TYPES = path.join(root, 'media/model.d.ts');

const DECLARATIONS = [
  {
    source: MODEL_SOURCE,
    target: MODEL_TYPES,
    header: `// The types of a lesson pack's reference model: \`import type { ReferenceModel } from 'lesson-companion/model'\`.
// Generated from src/core/model/model.ts by scripts/write-model-types.mjs; do not edit. See docs/authoring.md.
`,
    rewrite: (text) => text,
  },
  {
    source: path.join(root, 'src/worlds/queues.ts'),
    target: path.join(root, 'media/worlds/queues.d.ts'),
    header: `// The queue world shipped with lesson-companion: \`export { queueWorld as world, queueBaselines as baselines } from 'lesson-companion/worlds/queues'\`.
// Generated from src/worlds/queues.ts by scripts/write-model-types.mjs; do not edit. See docs/authoring.md ("World scenarios").
`,
    rewrite: (text) => text.replaceAll(`'../core/model/model'`, `'lesson-companion/model'`),
  },
];

/** One declaration file's text: tsc --declaration --emitDeclarationOnly on its source, in memory. */
function declarationText({ source, header, rewrite }) {
  const ts = createRequire(import.meta.url)('typescript');
  let text;
  const program = ts.createProgram([source], {
    declaration: true,
    emitDeclarationOnly: true,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noLib: false,
  });
  const result = program.emit(program.getSourceFile(source), (file, data) => {
    if (file.endsWith('.d.ts') && path.basename(file, '.d.ts') === path.basename(source, '.ts')) text = data;
  });
  if (result.emitSkipped || text === undefined) throw new Error(`no declarations emitted for ${source}`);
  return header + rewrite(text);
}

/** The text of media/model.d.ts. */
export function modelTypesText() {
  return declarationText(DECLARATIONS[0]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let stale = false;
  for (const declaration of DECLARATIONS) {
    const text = declarationText(declaration);
    const current = await fs.readFile(declaration.target, 'utf8').catch(() => '');
    if (current === text) continue;
    if (process.argv.includes('--check')) {
      process.stderr.write(
        `${path.relative(root, declaration.target)} is stale: run \`node scripts/write-model-types.mjs\` and commit it.\n`,
      );
      stale = true;
    } else {
      await fs.writeFile(declaration.target, text);
      process.stdout.write(`wrote ${path.relative(root, declaration.target)}\n`);
    }
  }
  if (stale) process.exit(1);
}
