/**
 * The service's collection after jobs (src/node/service/idleCollection.ts): once the last running job has
 * answered, on a later turn, and not while another job runs. The timer is the test's own, so that each turn is
 * the test's to take; the collection is a counter here, and V8's own in the service (checkService.test.ts).
 */
import * as assert from 'node:assert/strict';
import { fullCollection, IdleCollection, type CollectionTimer } from '../../src/node/service/idleCollection';

function manualTimer(): CollectionTimer & { fire(): void; waiting(): number } {
  const queue = new Map<number, () => void>();
  let next = 0;
  return {
    later: (fn) => {
      queue.set(++next, fn);
      return next;
    },
    cancel: (handle) => void queue.delete(handle as number),
    fire: () => {
      const due = [...queue.values()];
      queue.clear();
      for (const fn of due) fn();
    },
    waiting: () => queue.size,
  };
}

function deferred(): { promise: Promise<string>; resolve(value: string): void } {
  let resolve!: (value: string) => void;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the service collects after jobs (idleCollection.ts)', () => {
  it('collects once the job has answered, on a later turn, and counts it', async () => {
    let collected = 0;
    const timer = manualTimer();
    const idle = new IdleCollection(() => (collected += 1), timer);
    assert.equal(await idle.around(() => Promise.resolve('answer')), 'answer');
    assert.equal(collected, 0, 'not in the turn that answers');
    timer.fire();
    assert.equal(collected, 1);
    assert.equal(idle.collections, 1);
  });

  it('waits for the last of two jobs, and a job that starts before the turn comes cancels it', async () => {
    let collected = 0;
    const timer = manualTimer();
    const idle = new IdleCollection(() => (collected += 1), timer);
    const first = deferred();
    const second = deferred();
    const a = idle.around(() => first.promise);
    const b = idle.around(() => second.promise);
    first.resolve('a');
    await a;
    assert.equal(timer.waiting(), 0, 'the second job still runs');
    second.resolve('b');
    await b;
    assert.equal(timer.waiting(), 1);
    const third = deferred();
    const c = idle.around(() => third.promise);
    assert.equal(timer.waiting(), 0, 'a new job cancels the collection it would interrupt');
    third.resolve('c');
    await c;
    timer.fire();
    assert.equal(collected, 1);
  });

  it('collects after a job that failed, and rethrows its error', async () => {
    let collected = 0;
    const timer = manualTimer();
    const idle = new IdleCollection(() => (collected += 1), timer);
    await assert.rejects(
      idle.around(() => Promise.reject(new Error('refused'))),
      /refused/,
    );
    timer.fire();
    assert.equal(collected, 1);
  });

  it("reaches V8's own collection in Node", () => {
    assert.equal(typeof fullCollection(), 'function');
  });
});
