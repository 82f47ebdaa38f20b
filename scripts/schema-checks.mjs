// The checkers of lesson.json's schema and of a template scenario's, generated at build time by TypeBox's
// compiler from the schemas in src (src/core/pack/builtCheck.ts says why), as the text of one module esbuild
// injects into the Node bundles. The code is the tool's own, made from its own schemas at every build; nothing is
// written anywhere.
import { fromSource, root } from './from-source.mjs';

/** Each injected global, and the schema it checks: its module and its export. */
const CHECKS = {
  LESSON_COMPANION_MANIFEST_CHECK: ['./src/core/pack/schema', 'LessonManifestSchema'],
  LESSON_COMPANION_SCENARIO_CHECK: ['./src/worlds/templates/scenarioSchema', 'ScenarioSchema'],
};

/** TypeBox's code for each schema: a function body that returns `check(value)`, given kind, format and hash. */
async function generatedCode() {
  return fromSource({
    source: [
      `import { TypeCompiler } from '@sinclair/typebox/compiler';`,
      ...Object.entries(CHECKS).flatMap(([global, [module, schema]]) => [
        `import { ${schema} } from '${module}';`,
        `export const ${global} = TypeCompiler.Code(${schema}, [], { language: 'javascript' });`,
      ]),
    ].join('\n'),
  });
}

/**
 * The module's text. The schemas have no kinds or formats of their own registered, so `kind` and `format` answer
 * false (a schema that gained one fails the comparison test until this says how). `hash` serves uniqueItems only,
 * as a key in a Set: a string is its own key (TypeBox's hash, 64-bit FNV over BigInt, costs more than the rest of
 * the check), anything else TypeBox's.
 */
export async function schemaChecksModule() {
  const code = await generatedCode();
  return [
    `import { Hash } from '@sinclair/typebox/value';`,
    `const none = () => false;`,
    `const key = (value) => (typeof value === 'string' ? 's' + value : Hash(value));`,
    ...Object.keys(CHECKS).map(
      (global) => `export const ${global} = (function (kind, format, hash) {\n${code[global]}\n})(none, none, key);`,
    ),
  ].join('\n');
}

/** The name the Node bundles inject (esbuild's `inject`), resolved by the plugin below to the module above. */
export const SCHEMA_CHECKS = 'lesson-companion-schema-checks';

/**
 * The esbuild plugin that gives that name the generated module (made once here, in memory): a bundle built with
 * it and `inject: [SCHEMA_CHECKS]` has each `LESSON_COMPANION_*_CHECK` where its module asks for it.
 */
export async function schemaChecksPlugin() {
  const text = await schemaChecksModule();
  return {
    name: 'schema-checks',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${SCHEMA_CHECKS}$`) }, (args) => ({
        path: args.path,
        namespace: 'schema-checks',
      }));
      build.onLoad({ filter: /.*/, namespace: 'schema-checks' }, () => ({
        contents: text,
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}
