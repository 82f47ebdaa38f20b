import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { model } from '../../lessons/conn-counts/model/model';
import { seededRandom } from '../../src/core/model/random';
import type { LessonManifest } from '../../src/core/pack/schema';
import { simulate } from '../../src/core/model/simulate';
import { parseTranscripts, type Transcript } from '../../src/core/model/transcript';

const PACK = path.join(__dirname, '..', '..', 'lessons', 'conn-counts');
const run = (commands: string[], mutations: string[] = []): string[] => [
  ...simulate(model, commands, new Set(mutations)).outcome.lines,
];

function packTranscripts(): { manifest: LessonManifest; transcripts: Transcript[] } {
  const manifest = JSON.parse(fs.readFileSync(path.join(PACK, 'lesson.json'), 'utf8')) as LessonManifest;
  const transcripts = manifest.transcripts.flatMap((file) =>
    parseTranscripts(fs.readFileSync(path.join(PACK, file), 'utf8'), file),
  );
  return { manifest, transcripts };
}

describe('conn-counts reference model', () => {
  it("answers the seed's first failure question: (s3, s1, s2) with no counts picks s1 and writes nothing", () => {
    assert.deepEqual(run(['BACKENDS s3 s1 s2', 'PICK', 'PICK', 'ACTIVE']), ['OK', 's1', 's1']);
  });

  it('counts opens from 0, floors closes at 0, and gives an unseen closed backend an entry of 0', () => {
    assert.deepEqual(run(['OPEN s1', 'OPEN s1', 'CLOSE s4', 'CLOSE s4', 'ACTIVE']), [
      'OK',
      'OK',
      'OK',
      'OK',
      's1:2',
      's4:0',
    ]);
  });

  it('keeps the counts when BACKENDS changes and forgets them on RESET', () => {
    assert.deepEqual(run(['OPEN s1', 'BACKENDS s1 s2', 'PICK', 'BACKENDS', 'ACTIVE', 'RESET', 'ACTIVE', 'PICK']), [
      'OK',
      'OK',
      's2',
      'OK',
      's1:1',
      'OK',
      'ERROR ValueError',
    ]);
  });

  it('breaks ties by code point, so web10 beats web2 and capitals beat lower case', () => {
    assert.deepEqual(run(['BACKENDS web2 web10', 'PICK', 'BACKENDS b Zed', 'PICK']), ['OK', 'web10', 'OK', 'Zed']);
  });

  it('answers ERROR for malformed commands instead of guessing', () => {
    assert.deepEqual(run(['OPEN', 'CLOSE a b', 'HELLO']), ['ERROR', 'ERROR', 'ERROR']);
  });

  it('sorts ACTIVE by name and shows the counts as the trace snapshot', () => {
    const sim = simulate(model, ['OPEN zeta', 'OPEN alpha', 'OPEN zeta', 'ACTIVE']);
    assert.deepEqual(sim.outcome.lines, ['OK', 'OK', 'OK', 'alpha:1', 'zeta:2']);
    assert.deepEqual(sim.steps[3]!.snapshot, { zeta: 2, alpha: 1 });
  });

  it('each mutation changes the answer where its mistake shows', () => {
    assert.deepEqual(run(['BACKENDS s3 s1 s2', 'PICK'], ['tiebreak-order']), ['OK', 's3']);
    assert.deepEqual(run(['BACKENDS s3 s1 s2', 'PICK'], ['tiebreak-last']), ['OK', 's2']);
    assert.deepEqual(run(['CLOSE s4', 'ACTIVE'], ['negative-count']), ['OK', 's4:-1']);
    assert.deepEqual(run(['BACKENDS s1 s2', 'PICK', 'PICK', 'ACTIVE'], ['pick-writes']), [
      'OK',
      's1',
      's2',
      's1:1',
      's2:1',
    ]);
    assert.deepEqual(run(['OPEN s1', 'CLOSE s1', 'ACTIVE'], ['unseen-crash']), ['ERROR KeyError', 'OK', 's1:0']);
    assert.deepEqual(run(['OPEN s1', 'CLOSE s1', 'CLOSE s2', 'ACTIVE'], ['unseen-crash-close']), [
      'OK',
      'OK',
      'ERROR KeyError',
      's1:0',
    ]);
    assert.deepEqual(run(['PICK'], ['empty-no-error']), ['NONE']);
    assert.deepEqual(simulate(model, ['ACTIVE', 'PICK', 'ACTIVE'], new Set(['empty-crash'])).outcome, {
      lines: [],
      ending: 'crashed',
    });
  });

  it('tells every mistake, and every pair of mistakes the diagnosis tries, apart on the hidden transcripts', () => {
    const { manifest, transcripts } = packTranscripts();
    const vector = (mutations: readonly string[]): string =>
      JSON.stringify(
        transcripts.map(
          (t) =>
            simulate(
              model,
              t.steps.map((s) => s.command),
              new Set(mutations),
            ).outcome,
        ),
      );
    const seen = new Map<string, string>([[vector([]), 'the reference']]);
    // Singles and cross-mistake pairs of the deterministic mutations (a free-choice one answers like the reference).
    const free = new Set(model.mutations.filter((m) => m.nondeterministic).map((m) => m.id));
    const mutants = manifest.mistakes.flatMap((m) =>
      m.mutants.filter((id) => !free.has(id)).map((id) => ({ id, mistake: m.id })),
    );
    const all = [
      ...mutants.map((a) => ({ mutations: [a.id] })),
      ...mutants.flatMap((a, i) =>
        mutants
          .slice(i + 1)
          .filter((b) => b.mistake !== a.mistake)
          .map((b) => ({ mutations: [a.id, b.id] })),
      ),
    ];
    assert.ok(all.length > 30, 'singles and pairs of every mistake');
    for (const candidate of all) {
      const name = candidate.mutations.join(' + ');
      const key = vector(candidate.mutations);
      assert.ok(!seen.has(key), `${name} behaves exactly like ${seen.get(key)} on every hidden transcript`);
      seen.set(key, name);
    }
  });

  it('reveals every single mutation in the hand-written transcripts alone, without the generated long runs', () => {
    const { transcripts } = packTranscripts();
    const handWritten = transcripts.filter((t) => !t.name.startsWith('long-'));
    for (const { id } of model.mutations.filter((m) => !m.nondeterministic)) {
      const revealing = handWritten.filter((t) => {
        const commands = t.steps.map((s) => s.command);
        const expected = JSON.stringify(simulate(model, commands).outcome);
        return JSON.stringify(simulate(model, commands, new Set([id])).outcome) !== expected;
      });
      assert.ok(revealing.length > 0, `no hand-written transcript reveals ${id}`);
    }
  });

  it("agrees with every hidden transcript's expected answers", () => {
    for (const t of packTranscripts().transcripts) {
      assert.deepEqual(
        run(t.steps.map((s) => s.command)),
        t.steps.flatMap((s) => s.expected),
        t.name,
      );
    }
  });

  it('generates deterministic transcripts that start with BACKENDS and use every verb', () => {
    const a = model.generate(seededRandom(7), 60);
    assert.deepEqual(model.generate(seededRandom(7), 60), a);
    assert.equal(a.length, 60);
    assert.match(a[0]!, /^BACKENDS\b/);
    const verbs = new Set(
      Array.from({ length: 20 }, (_, i) => model.generate(seededRandom(i), 40))
        .flat()
        .map((c) => c.split(' ')[0]),
    );
    assert.deepEqual([...verbs].sort(), ['ACTIVE', 'BACKENDS', 'CLOSE', 'OPEN', 'PICK', 'RESET']);
  });

  it('recognises its own answer lines and cuts ACTIVE answers by shape', () => {
    for (const line of ['OK', 's1', 'NONE', 'ERROR KeyError', 'ERROR ValueError', 's4:0', 's4:-1'])
      assert.ok(model.isAnswerLine(line), line);
    for (const line of ['debug: pick', '', 'a b']) assert.ok(!model.isAnswerLine(line), line);
    assert.equal(model.answerShape('ACTIVE').kind, 'many');
    assert.equal(model.answerShape('PICK').kind, 'one');
  });
});
