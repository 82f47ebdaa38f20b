// The installed-pack tamper check (src/node/packs/packIntegrity.ts): the tests that kill its mutants install and
// check real packs (test/node/bundle.test.ts), so they are kept out of the main run, where every core mutant those
// checks reach would run them too. `npm run mutation:packs`.
import config from './stryker.config.mjs';

export default {
  ...config,
  mutate: ['src/node/packs/packIntegrity.ts'],
  mochaOptions: { ...config.mochaOptions, spec: ['test/node/bundle.test.ts'] },
  incrementalFile: 'test-output/mutation/packs/stryker-incremental.json',
  htmlReporter: { fileName: 'test-output/mutation/packs/index.html' },
  jsonReporter: { fileName: 'test-output/mutation/packs/mutation.json' },
};
