/**
 * The model's types in the pack's own `authoring/` folder (`lesson-companion types <pack>`, and `new`), so an
 * instructor type-checks a TypeScript model with `tsc -p <pack>/authoring` without installing this package
 * into the pack (an install runs the package's build and leaves package.json and a lock file in the pack).
 * `authoring/` is never bundled, so nothing written here reaches a learner. The compiler options are the ones
 * `validate` type-checks with (typeCheck.ts), so the two never disagree.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fsError } from '../errors/errors';

/** The declaration files a model may import, by specifier: their place in the package's media/ folder. */
export const MODEL_TYPE_FILES = {
  'lesson-companion/model': 'model.d.ts',
  'lesson-companion/worlds/queues': 'worlds/queues.d.ts',
} as const;

/** The folder the types ship in: media/ beside the bundle's dist/ (or beside src/ when running from source). */
export function shippedTypesDir(bundleDir: string): string {
  return path.resolve(bundleDir, '..', 'media');
}

/** The compiler options a model is checked with; `paths` point each specifier at a file under `typesDir`. */
export function modelCompilerOptions(typesDir: string, relativeTo?: string): Record<string, unknown> {
  const at = (file: string): string => {
    const absolute = path.join(typesDir, file);
    return relativeTo ? `./${path.relative(relativeTo, absolute).split(path.sep).join('/')}` : absolute;
  };
  return {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2022'],
    module: 'commonjs',
    moduleResolution: 'node10',
    types: [],
    skipLibCheck: true,
    paths: Object.fromEntries(Object.entries(MODEL_TYPE_FILES).map(([specifier, file]) => [specifier, [at(file)]])),
  };
}

/** What tsconfig.json includes: the model's folder (or, for a model at the pack's top, the model file). */
function modelInclude(modelPath: string): string[] {
  const folder = path.posix.dirname(modelPath);
  const javascript = /\.[cm]?js$/.test(modelPath);
  if (folder === '.') return [`../${modelPath}`];
  return [`../${folder}/**/*.${javascript ? 'js' : 'ts'}`];
}

/**
 * Writes `authoring/model.d.ts`, `authoring/worlds/queues.d.ts` and `authoring/tsconfig.json` (whose `paths`
 * resolve `lesson-companion/model` to the first); returns the paths written, relative to the pack.
 * Existing files are replaced: the types are the installed CLI's, and a rerun after an update refreshes them.
 */
export async function writeModelTypes(packDir: string, modelPath: string, typesDir: string): Promise<string[]> {
  const authoring = path.join(packDir, 'authoring');
  const written: string[] = [];
  const write = async (relative: string, text: string): Promise<void> => {
    const target = path.join(authoring, relative);
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, text);
    } catch (error) {
      throw fsError(error, 'write', target, 'Write the types into a pack folder you can write to.');
    }
    written.push(`authoring/${relative}`);
  };
  for (const file of Object.values(MODEL_TYPE_FILES)) {
    const source = path.join(typesDir, file);
    const text = await fs.readFile(source, 'utf8').catch((error: unknown) => {
      throw fsError(error, 'read', source, 'The lesson-companion installation is incomplete; reinstall it.');
    });
    await write(file, text);
  }
  const javascript = /\.[cm]?js$/.test(modelPath);
  const config = {
    $comment:
      'Written by `lesson-companion types`: type-checks the model with `tsc -p authoring` (authoring/ is never bundled).',
    compilerOptions: {
      ...modelCompilerOptions(authoring, authoring),
      ...(javascript ? { allowJs: true, checkJs: true } : {}),
    },
    include: modelInclude(modelPath),
  };
  await write('tsconfig.json', JSON.stringify(config, null, 2) + '\n');
  return written;
}
