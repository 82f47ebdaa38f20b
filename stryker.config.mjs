// Mutation testing (`npm run mutation`): StrykerJS over the pure core and the containment and pack-loading parts of
// src/node. Not part of `npm test` or CI: it takes hours on 2 cores (README, "Mutation testing"; docs/mutation.md).
// One mutant at a time (concurrency 1) because the machine is shared. Incremental: a re-run tests only the mutants
// whose code or covering tests changed since test-output/mutation/stryker-incremental.json.
// Run one part with `npm run mutation -- --mutate 'src/core/check/**/*.ts'`.

// STRYKER_PART=<name> keeps one part's results apart (test-output/mutation/parts/<name>.json and its own incremental
// file), so running the parts one after another does not clobber the previous part's incremental state;
// scripts/mutation-survivors.mjs merges the parts' reports.
const part = process.env.STRYKER_PART;
const out = part ? `test-output/mutation/parts/${part}` : 'test-output/mutation';
const incrementalFile = part ? `${out}.incremental.json` : 'test-output/mutation/stryker-incremental.json';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  packageManager: 'npm',
  testRunner: 'mocha',
  // The TypeScript checker rejects mutants that would not compile, but it costs most of the time per mutant;
  // STRYKER_NO_TYPECHECK=1 skips it (tsx runs a mistyped mutant anyway; check a survivor with tsc by hand).
  checkers: process.env.STRYKER_NO_TYPECHECK ? [] : ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: ['src/core/**/*.ts', 'src/node/sandbox/**/*.ts', 'src/node/packs/packs.ts'],
  mochaOptions: {
    // The repo's .mocharc is for people: every suite. Here only the fast, pure unit tests and the node tests
    // of the node files mutated; Stryker runs, per mutant, only the tests that reach it (perTest coverage).
    'no-config': true,
    require: ['tsx/cjs'],
    spec: [
      'test/unit/**/*.test.ts',
      'test/node/sandbox.test.ts',
      'test/node/packPaths.test.ts',
      'test/node/packCache.test.ts',
    ],
    // The emitted-types check compares a file written from the source on disk; in Stryker's sandbox every source
    // starts with `// @ts-nocheck`, so the emit differs and the initial run fails. It guards the build, not core.
    ignore: ['test/unit/modelTypes.test.ts'],
  },
  coverageAnalysis: 'perTest',
  // A static mutant (a module-level constant) needs the whole suite reloaded: about a minute each here. They are
  // reported as ignored, not tested; docs/mutation.md lists the files that have them.
  ignoreStatic: true,
  incremental: true,
  incrementalFile,
  concurrency: 1,
  // Added to each mutant's expected time: the machine is shared, and a slow run must not count as a hang.
  timeoutMS: 10000,
  tempDirName: part ? `.stryker-tmp-${part}` : '.stryker-tmp',
  ignorePatterns: ['/.code-server', '/dist', '/out', '/test-output', '/.test-logs', '/.test-logs-ui', '/.stryker-tmp*'],
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: part ? `${out}.html` : `${out}/index.html` },
  jsonReporter: { fileName: part ? `${out}.json` : `${out}/mutation.json` },
};

export default config;
