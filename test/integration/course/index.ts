// Standard VS Code test-runner entry point (extensionTestsPath): the extension host require()s this
// compiled file and calls run(); a rejected promise means failure. mocha@10/glob@10 are CommonJS-friendly,
// so tsc's CommonJS output can be require()d by the extension host's module loader as is.
import * as path from 'path';
import Mocha from 'mocha';
import { glob } from 'glob';

export async function run(): Promise<void> {
  // The extension host inherits code-server's environment; the harness sets NO_COLOR=1 when its own
  // stdout is not a terminal.
  // LC_TEST_GREP (a regular expression over "suite title test title") runs a subset, e.g. 'smoke'.
  const mocha = new Mocha({
    ui: 'tdd',
    color: !process.env.NO_COLOR,
    timeout: 30000,
    grep: process.env.LC_TEST_GREP || undefined,
  });
  // Only this folder's tests: the course suite has a workspace of its own (a course writes several lessons into it).
  const testsRoot = __dirname;
  const files = await glob('**/*.test.js', { cwd: testsRoot });
  for (const f of files.sort()) {
    mocha.addFile(path.resolve(testsRoot, f));
  }
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} tests failed.`)) : resolve()));
  });
}
