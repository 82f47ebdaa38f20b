/**
 * The fast pass (src/node/check/fastPass.ts) on its own: a run is a pass only when it is exactly the passing
 * batch's run (every byte of stdout, exit 0, nothing stopped), and the store keeps batches in memory only,
 * the newest ones, by key.
 */
import * as assert from 'node:assert/strict';
import type { PassingBatch } from '../../src/core/check/check';
import type { ProcessResult } from '../../src/core/check/process';
import { passes, PassingBatchStore } from '../../src/node/check/fastPass';

const batch: PassingBatch = {
  input: 'POOL a b\nPICK\nSTATUS\n',
  expectedStdout: 'OK\na\na:1 b:0\n',
  transcripts: [{ name: 'basics', description: 'a first pick' }],
  fuzz: { seed: 7, transcripts: 0 },
};
const run = (change: Partial<ProcessResult> = {}): ProcessResult => ({
  stdout: batch.expectedStdout,
  stderr: '',
  exitCode: 0,
  signal: null,
  timedOut: false,
  outputLimited: false,
  durationMs: 12,
  ...change,
});

describe('the fast pass', () => {
  it('passes exactly the passing run', () => {
    assert.equal(passes(run(), batch), true);
  });

  it('does not pass a run that differs in any way the learner could see or cause', () => {
    for (const [why, change] of [
      ['one byte of stdout', { stdout: batch.expectedStdout.replace('a:1', 'a:2') }],
      ['a carriage return', { stdout: batch.expectedStdout.replace(/\n/g, '\r\n') }],
      ['a missing last line', { stdout: 'OK\na\n' }],
      ['a non-zero exit', { exitCode: 1 }],
      ['a timeout', { timedOut: true }],
      ['an output limit', { outputLimited: true }],
      ['a start error', { startError: 'ENOENT' }],
    ] as const) {
      assert.equal(passes(run(change as Partial<ProcessResult>), batch), false, why);
    }
  });

  it('keeps batches by key, in memory, the newest past its limit', () => {
    const store = new PassingBatchStore(2);
    store.set('one', batch);
    store.set('two', { ...batch, expectedStdout: 'two' });
    assert.equal(store.get('one'), batch);
    store.set('three', { ...batch, expectedStdout: 'three' });
    assert.equal(store.size, 2);
    assert.equal(store.get('one'), undefined, 'the oldest went first');
    assert.equal(store.get('three')?.expectedStdout, 'three');
    assert.equal(store.get('missing'), undefined);
  });

  it('does not keep a batch too large to be worth holding', () => {
    const store = new PassingBatchStore();
    store.set('huge', { ...batch, expectedStdout: 'x'.repeat(17 * 1024 * 1024) });
    assert.equal(store.get('huge'), undefined);
  });
});
