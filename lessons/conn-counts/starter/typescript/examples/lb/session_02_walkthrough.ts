/**
 * Session 2 walkthrough: watch the counter move the pick.
 *
 * Run from the workspace root:
 *
 *     npx lesson-companion run examples/lb/session_02_walkthrough.ts
 *
 * It stops with "TODO: write ..." until pick(), connection_opened() and
 * connection_closed() in src/lb/least_conn.ts are written.
 */

import * as assert from 'node:assert/strict';
import { ConnCounts, connection_closed, connection_opened, pick } from '../../src/lb/least_conn';

const BACKENDS = ['s3', 's1', 's2'];

function show(step: string, counts: ConnCounts): string {
  const chosen = pick(counts, BACKENDS);
  const names = [...counts.active.keys()].sort();
  const active = names.map((name) => `${name}=${counts.active.get(name)}`).join(', ') || '(no entries)';
  console.log(`${step.padEnd(34)} active: ${active.padEnd(22)} pick -> ${chosen}`);
  return chosen;
}

function main(): void {
  const counts = new ConnCounts();
  console.log(`backends = ${JSON.stringify(BACKENDS)}\n`);

  // 1. Everything is at zero: a three-way tie, and the name decides, not the array order.
  assert.equal(show('start, all zero', counts), 's1');

  // 2. Opening connections moves the pick away from the busy backend.
  connection_opened(counts, 's1');
  assert.equal(show('open s1', counts), 's2');
  connection_opened(counts, 's2');
  assert.equal(show('open s2', counts), 's3');
  connection_opened(counts, 's3');
  assert.equal(show('open s3 (tied again at 1)', counts), 's1');

  // 3. Closing moves it back; a close at zero stays at zero.
  connection_closed(counts, 's2');
  assert.equal(show('close s2', counts), 's2');
  connection_closed(counts, 's2');
  assert.equal(counts.active.get('s2'), 0, 'a count must never go below zero');
  show('close s2 again (floor at 0)', counts);

  // 4. pick() only reads: the same state gives the same answer, every time, in any order.
  const before = new Map(counts.active);
  const first = pick(counts, BACKENDS);
  const second = pick(counts, BACKENDS);
  assert.equal(first, second, 'pick() must not change its own answer');
  assert.deepEqual(counts.active, before, 'pick() must not write to counts.active');
  const twin = new ConnCounts();
  for (const [name, count] of counts.active) twin.active.set(name, count);
  assert.equal(pick(twin, [...BACKENDS].reverse()), first, 'the array order must not matter');

  // 5. No backends, nothing to pick.
  assert.throws(() => pick(counts, []), RangeError, 'pick() with no backends must throw a RangeError');
  console.log('\npick(counts, []) threw a RangeError, as it should');

  console.log('identical state gave identical picks: done');
}

main();
