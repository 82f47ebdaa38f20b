/** The replay line names the lesson the way the check was given it: a pack folder by its path, else by id. */
import * as assert from 'node:assert/strict';
import { replayLesson, replayLine } from '../../src/node/run/replay';

describe('replay line', () => {
  const interpreters = { python: 'python3', node: process.execPath };
  it('a check given a folder replays with --lesson <that folder>; a built-in or installed pack by its id', () => {
    const folder = replayLesson({ dir: '/home/me/my packs/limiter', origin: 'folder', manifest: { id: 'limiter' } });
    assert.equal(
      replayLine('RESET\nADD 2\n', 'typescript', '/w/counter.ts', folder, interpreters, undefined),
      "printf '%s\\n' RESET 'ADD 2' | npx lesson-companion run counter.ts --lesson '/home/me/my packs/limiter'",
    );
    const builtIn = replayLesson({
      dir: '/x/lessons/conn-counts',
      origin: 'built-in',
      manifest: { id: 'conn-counts' },
    });
    assert.match(
      replayLine('RESET\n', 'typescript', '/w/c.ts', builtIn, interpreters, undefined),
      / --lesson conn-counts$/,
    );
    assert.equal(replayLesson({ dir: '/p/i', origin: 'installed', manifest: { id: 'i' } }), 'i');
  });
});
