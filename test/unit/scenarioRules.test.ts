// Scenarios in lesson.json: what the schema bounds and what the rules add (names that must match, ticks
// inside the run, placeholders that exist), each refused with a message that says where and what to do.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseLessonJson as parseManifest } from '../../src/worlds/templates/lessonJson';
import { friendlyManifestMessage } from '../../src/core/pack/manifestMessages';

const FILE = 'lessons/least-connections/lesson.json';
const GOOD = fs.readFileSync(path.join(__dirname, '..', '..', FILE), 'utf8');

function problems(edit: (scenario: Record<string, any>, manifest: Record<string, any>) => void): string[] {
  const manifest = JSON.parse(GOOD);
  edit(manifest.scenarios[0], manifest);
  const text = JSON.stringify(manifest, null, 2);
  const result = parseManifest(text, FILE);
  return result.ok ? [] : result.problems.map((p) => friendlyManifestMessage(p.message, p.path, text));
}

describe('scenarios in lesson.json', () => {
  it('the built-in lessons declare theirs cleanly', () => {
    assert.deepEqual(
      problems(() => undefined),
      [],
    );
  });

  it('names must match: servers of the pool, mistakes of the lesson', () => {
    assert.deepEqual(
      problems((s) => (s.events = [{ tick: 3, server: 'zz', health: 'down' }])),
      [
        'scenarios.0.events.0.server: "zz" is not a server of this scenario (a, b, c)',
        'scenarios.0.events.0: a server goes down here, but commands.down is not given: add the command that tells the balancer',
      ],
    );
    assert.deepEqual(
      problems((s) => (s.shows = ['no-such-mistake'])),
      [
        'scenarios.0.shows.0: "no-such-mistake" is not a mistake of this lesson (mistakes: tiebreak, negative-count, late-increment, counts-as-text, unknown-backend, empty-pool, stale-counts)',
      ],
    );
    assert.deepEqual(
      problems((s) => (s.servers[1].name = 'a')),
      ['scenarios.0.servers.1.name: server "a" is listed twice; each server of the pool needs its own name'],
    );
  });

  it('ticks stay inside the run, and ids are unique', () => {
    assert.deepEqual(
      problems((s) => (s.arrivals.at = [{ tick: 21, requests: 5 }])),
      ['scenarios.0.arrivals.at.0.tick: tick 21 is after the last tick of the run (20)'],
    );
    assert.deepEqual(
      problems((s, m) => (m.scenarios[1].id = s.id)),
      ['scenarios.1.id: scenario id "slow-server" is used twice (first at scenarios.0); ids must be unique'],
    );
  });

  it('templates name the server where they must, and use no other placeholder', () => {
    assert.deepEqual(
      problems((s) => (s.commands.done = 'DONE')),
      ["scenarios.0.commands.done: the command must name the server: put {server} where the server's name goes"],
    );
    assert.deepEqual(
      problems((s) => (s.commands.start = ['POOL {pool}'])),
      ['scenarios.0.commands.start.0: "{pool}" is not a placeholder of this command: it may use {servers}'],
    );
    assert.deepEqual(
      problems((s) => (s.commands.pick = 'PICK {server}')),
      ['scenarios.0.commands.pick: "{server}" is not a placeholder of this command: it takes no placeholder'],
    );
  });

  it('a template scenario that does not fit its schema is told at the field, in the file, not as "not one of the kinds"', () => {
    const manifest = JSON.parse(GOOD);
    manifest.scenarios[0].servers = 'a b c';
    manifest.scenarios[0].ticks = 0;
    const text = JSON.stringify(manifest, null, 2);
    const result = parseManifest(text, FILE);
    assert.ok(!result.ok);
    assert.deepEqual(
      result.problems.map((p) => p.path),
      ['/scenarios/0/servers', '/scenarios/0/ticks'],
    );
    const lines = text.split('\n');
    assert.match(lines[result.problems[0]!.line - 1]!, /"servers": "a b c"/);
    assert.match(result.problems[1]!.message, /ticks/);
  });

  it("bounds the size of a run: each request waits for an answer from the learner's program", () => {
    assert.deepEqual(
      problems((s) => ((s.ticks = 200), (s.arrivals.perTick = 500))),
      [
        "scenarios.0.arrivals: the run sends 100000 requests; a scenario may send at most 20000 (each one waits for an answer from the learner's program)",
      ],
    );
    assert.equal(problems((s) => (s.ticks = 201)).length, 1);
    assert.deepEqual(
      problems((s) => (s.arrivals.perTick = 0)),
      ['scenarios.0.arrivals: no request ever arrives: give perTick or an arrival in "at" more than 0 requests'],
    );
  });
});
