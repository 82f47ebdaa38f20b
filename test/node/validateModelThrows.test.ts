/**
 * A reference model that throws is a finding of `validate`: the transcript, the command, the model's own file,
 * line and column (through the transpiler's source map) and the thrown message; never "unexpected error" with a
 * stack of the CLI's bundle. Real: the scaffold's TypeScript model, loaded and run as validate runs it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { createPack } from '../../src/node/authoring/scaffold';
import { validatePack } from '../../src/node/authoring/validatePack';

const root = path.resolve(__dirname, '..', '..');

let tmp: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-validate-throws-'));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** The blank pack with `line` inserted before the model line holding `before`; returns the inserted line's number and column of `new Error`. */
async function throwingPack(before: string, line: string): Promise<{ dir: string; line: number; column: number }> {
  const { dir } = await createPack(tmp, 'adder', { blank: true });
  const file = path.join(dir, 'model/model.ts');
  const lines = (await fs.readFile(file, 'utf8')).split('\n');
  const at = lines.findIndex((l) => l.includes(before));
  assert.ok(at >= 0, before);
  lines.splice(at, 0, line);
  await fs.writeFile(file, lines.join('\n'));
  return { dir, line: at + 1, column: line.indexOf('new Error') + 1 };
}

describe('validate: a model that throws', function () {
  this.timeout(120000);

  it('is a finding at the model line, with the transcript, the command and the message; no bundle stack', async () => {
    const thrown = await throwingPack(
      "if (verb === 'RESET')",
      "    if (verb === 'ADD' && args[0] === '3') throw new Error('three is unlucky');",
    );
    const io = {
      stdout: '',
      stderr: '',
      out: (t: string) => void (io.stdout += t),
      err: (t: string) => void (io.stderr += t),
      isTTY: false,
      env: { NO_COLOR: '1' } as NodeJS.ProcessEnv,
      cwd: tmp,
      bundleDir: path.join(root, 'dist'),
    };
    assert.equal(await main(['validate', 'adder'], io), 1, io.stdout + io.stderr);
    assert.equal(io.stderr, '');
    assert.ok(
      io.stdout.includes(
        `adder/model/model.ts:${thrown.line}:${thrown.column}: the model threw in step("ADD 3"), on transcript "adds-up" (transcripts/hidden.txt:7): three is unlucky`,
      ),
      io.stdout,
    );
    assert.doesNotMatch(io.stdout, /unexpected error|--debug|cli-main|at Object\./);
  });

  it('names the mutation under which only a mutant throws', async () => {
    const thrown = await throwingPack(
      'const total = state.total + n;',
      "  if (on.has('total-before-add') && n === 3) throw new Error('mutant trouble');",
    );
    const result = await validatePack(thrown.dir, { runStarters: false });
    const said = result.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`);
    assert.deepEqual(said, [
      `model/model.ts:${thrown.line}:${thrown.column} the model threw in step("ADD 3") with mutation "total-before-add" on, on transcript "adds-up" (transcripts/hidden.txt:7): mutant trouble`,
    ]);
    assert.equal(result.valid, false);
  });

  it('says what validate was doing when no hidden transcript makes it throw', async () => {
    const thrown = await throwingPack(
      'return Array.from({ length }',
      "    if (length > 0) throw new Error('no generating today');",
    );
    const result = await validatePack(thrown.dir, { runStarters: false });
    const said = result.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`);
    assert.deepEqual(said, [
      `model/model.ts:${thrown.line}:${thrown.column} the model threw in generate(), while validate ran its own generated commands: no generating today`,
    ]);
  });
});
