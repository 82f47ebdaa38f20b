/**
 * Runs that failed for the machine are run again; runs that failed for the program are not
 * (src/node/run/machineFailures.ts). FAKE results on purpose: a machine out of process slots, or a bubblewrap
 * that cannot make its namespace, cannot be had at will (CI saw a fresh run with no answer at all under load,
 * told as a program that stopped answering on one of two runs).
 */
import * as assert from 'node:assert/strict';
import type { ProcessResult } from '../../src/core/check/process';
import { failedForTheMachine, runPastMachineFailures } from '../../src/node/run/machineFailures';
import { done } from './fakeLesson';

const result = (over: Partial<ProcessResult>): ProcessResult => done(over.stdout ?? '', over);

const answered = result({ stdout: 'OK\n' });
const noSlot = result({ exitCode: null, startError: { code: 'EAGAIN', command: 'bwrap' } });
const noNamespace = result({
  exitCode: 1,
  stderr: 'bwrap: Creating new namespace failed: Resource temporarily unavailable\n',
});

describe('runs that failed for the machine, not the program', () => {
  it('tells the machine’s failures from the program’s', () => {
    assert.equal(failedForTheMachine(noSlot, true), true);
    assert.equal(failedForTheMachine(noNamespace, true), true);
    // Outside a sandbox no bubblewrap ran: a program may print that itself.
    assert.equal(failedForTheMachine(noNamespace, false), false);
    // A missing interpreter is missing a moment later too.
    assert.equal(
      failedForTheMachine(result({ exitCode: null, startError: { code: 'ENOENT', command: 'python3' } }), true),
      false,
    );
    // The program ran: it answered, or crashed in its own words.
    assert.equal(failedForTheMachine(result({ ...noNamespace, stdout: 'OK\n' }), true), false);
    assert.equal(
      failedForTheMachine(result({ exitCode: 1, stderr: 'Traceback (most recent call last):\n' }), true),
      false,
    );
    assert.equal(failedForTheMachine(result({ ...noNamespace, timedOut: true }), true), false);
  });

  it('runs again after a pause while the machine fails, and keeps the first run the program had', async () => {
    const given = [noSlot, noNamespace, answered];
    let calls = 0;
    const got = await runPastMachineFailures(async () => given[calls++]!, true, undefined, [1, 1]);
    assert.deepEqual([got, calls], [answered, 3]);
  });

  it('stops trying after its pauses: a sandbox that never sets up is the run’s own error', async () => {
    let calls = 0;
    const got = await runPastMachineFailures(async () => (calls++, noNamespace), true, undefined, [1, 1]);
    assert.deepEqual([got, calls], [noNamespace, 3]);
  });

  it('runs a program’s own failure once, and a cancelled run is not tried again', async () => {
    let calls = 0;
    const crash = result({ exitCode: 1, stderr: 'IndexError: list index out of range\n' });
    assert.equal(await runPastMachineFailures(async () => (calls++, crash), true, undefined, [1, 1]), crash);
    assert.equal(calls, 1);
    const cancel = new AbortController();
    cancel.abort();
    calls = 0;
    await runPastMachineFailures(async () => (calls++, noSlot), true, cancel.signal, [1, 1]);
    assert.equal(calls, 1);
  });
});
