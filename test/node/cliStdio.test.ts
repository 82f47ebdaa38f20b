/**
 * The command line writes its output to descriptors 1 and 2 directly (src/cli/stdio.ts): whole and in order
 * through a pipe, quiet when the reader goes away, and handed to Node's stream where the descriptor would block.
 * Real processes, except EAGAIN: a full non-blocking pipe cannot be had on demand, so one test gives the writer
 * a write that says EAGAIN (and says so).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { descriptorWriter } from '../../src/cli/stdio';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

describe('the command line writes to its descriptors (src/cli/stdio.ts)', function () {
  this.timeout(30000);

  it('writes the whole listing through a pipe, as JSON that parses', () => {
    const out = execFileSync(process.execPath, [CLI, 'lessons', '--json'], { encoding: 'utf8' });
    const listing = JSON.parse(out) as { lessons: { id: string }[] };
    assert.ok(listing.lessons.some((l) => l.id === 'least-connections'));
  });

  it('ends quietly, with its own exit code, when the reader has gone (`lessons | true`)', () => {
    // `true` exits at once; the CLI writes after its start, into a pipe nobody reads (EPIPE).
    const shell = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${CLI}" lessons | true`], {
      encoding: 'utf8',
    });
    assert.equal(shell.stderr, '');
    assert.equal(shell.status, 0);
  });

  it('hands what is left, and every later write, to the stream when the descriptor would block (EAGAIN)', () => {
    const stream = new PassThrough();
    let calls = 0;
    // Stands in for a full non-blocking pipe: the first call writes 3 bytes, the second says EAGAIN.
    const writeSync = (_fd: number, bytes: Uint8Array, offset: number): number => {
      calls += 1;
      if (calls === 1) return Math.min(3, bytes.length - offset);
      throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' });
    };
    const write = descriptorWriter(1, () => stream, writeSync);
    write('abcdef');
    write('ghi');
    assert.equal(calls, 2, 'after EAGAIN, nothing more is tried on the descriptor');
    assert.equal(String(stream.read()), 'defghi');
  });

  it('throws any other write error', () => {
    const write = descriptorWriter(
      1,
      () => new PassThrough(),
      () => {
        throw Object.assign(new Error('EIO'), { code: 'EIO' });
      },
    );
    assert.throws(() => write('x'), /EIO/);
  });
});

describe('the command line never ends as a silent success while its command is unsettled (main.ts exitWhenSettled)', function () {
  this.timeout(30000);
  const MAIN = path.resolve(__dirname, '..', '..', 'src', 'cli', 'main.ts');
  /** A real Node process that settles (or never settles) `promise` as the CLI settles its command. */
  const settle = (promise: string): ReturnType<typeof spawnSync> =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `require(${JSON.stringify(MAIN)}).exitWhenSettled(${promise}, (t) => process.stderr.write(t));`,
      ],
      { encoding: 'utf8' },
    );

  it('says so, with the code of an unexpected error, when nothing is left to wait for and no answer came', () => {
    // A promise that nothing will ever settle: Node's own ending would be exit 0 with no output.
    const run = settle('new Promise(() => {})');
    assert.equal(run.status, 2);
    assert.match(String(run.stderr), /internal error: the command stopped before it had an answer/);
  });

  it("ends with the command's own code and says nothing more when it settles", () => {
    const run = settle('new Promise((resolve) => setTimeout(() => resolve(1), 20))');
    assert.equal(run.status, 1);
    assert.equal(run.stderr, '');
  });
});
