// The checker of lesson.json's schema, generated at build time by TypeBox's compiler from the schema in src
// (src/core/pack/manifestCheck.ts says why), as the text of a module esbuild injects into the Node bundles. The
// code is the tool's own, made from its own schema at every build; nothing is written anywhere.
import { fromSource, root } from './from-source.mjs';

/** TypeBox's code for LessonManifestSchema: a function body that returns `check(value)`, given kind, format, hash. */
async function generatedCode() {
  const { code } = await fromSource({
    source: [
      `import { TypeCompiler } from '@sinclair/typebox/compiler';`,
      `import { LessonManifestSchema } from './src/core/pack/schema';`,
      `export const code = TypeCompiler.Code(LessonManifestSchema, [], { language: 'javascript' });`,
    ].join('\n'),
  });
  return code;
}

/**
 * The module's text. The schema has no kinds or formats of its own registered, so `kind` and `format` answer
 * false (a schema that gained one fails the comparison test until this says how). `hash` serves uniqueItems only,
 * as a key in a Set: a string is its own key (TypeBox's hash, 64-bit FNV over BigInt, costs more than the rest of
 * the check), anything else TypeBox's.
 */
export async function manifestCheckModule() {
  return [
    `import { Hash } from '@sinclair/typebox/value';`,
    `const none = () => false;`,
    `const key = (value) => (typeof value === 'string' ? 's' + value : Hash(value));`,
    `export const LESSON_COMPANION_MANIFEST_CHECK = (function (kind, format, hash) {`,
    await generatedCode(),
    `})(none, none, key);`,
  ].join('\n');
}

/** The name the Node bundles inject (esbuild's `inject`), resolved by the plugin below to the module above. */
export const MANIFEST_CHECK = 'lesson-companion-manifest-check';

/**
 * The esbuild plugin that gives that name the generated module (made once here, in memory): a bundle built with
 * it and `inject: [MANIFEST_CHECK]` has `LESSON_COMPANION_MANIFEST_CHECK` where manifestCheck.ts asks for it.
 */
export async function manifestCheckPlugin() {
  const text = await manifestCheckModule();
  return {
    name: 'manifest-check',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${MANIFEST_CHECK}$`) }, (args) => ({
        path: args.path,
        namespace: 'manifest-check',
      }));
      build.onLoad({ filter: /.*/, namespace: 'manifest-check' }, () => ({
        contents: text,
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}
