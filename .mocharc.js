// Every test of the unit and node suites by default; only the files named when some are named
// (`npx mocha test/unit/x.test.ts`). A plain .mocharc.json would add its spec to the named files and run everything.
const named = process.argv.slice(2).some((arg) => /\.test\.[cm]?[jt]s$/.test(arg));
module.exports = {
  require: ['tsx/cjs'],
  spec: named ? [] : ['test/unit/**/*.test.ts', 'test/node/**/*.test.ts'],
  timeout: 20000,
  reporter: 'spec',
};
