import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { candidates, diagnose, type Evidence, type MistakeMutants } from '../../src/core/diagnose';
import { parseManifest } from '../../src/core/manifest';
import { model } from '../../lessons/least-connections/model/model';
import { simulate, type Outcome } from '../../src/core/simulate';
import { parseTranscripts, type Transcript } from '../../src/core/transcript';

const LESSON = path.join(__dirname, '..', '..', 'lessons', 'least-connections');

function loadLesson(): { mistakes: MistakeMutants[]; transcripts: Transcript[] } {
  const parsed = parseManifest(fs.readFileSync(path.join(LESSON, 'lesson.json'), 'utf8'), 'lesson.json');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const transcripts = parsed.manifest.transcripts.flatMap((file) => parseTranscripts(fs.readFileSync(path.join(LESSON, file), 'utf8'), file));
  return { mistakes: parsed.manifest.mistakes, transcripts };
}

const { mistakes, transcripts } = loadLesson();
const mistakeOf = (mutation: string): string => mistakes.find((m) => m.mutants.includes(mutation))!.id;
const allMutations = mistakes.flatMap((m) => m.mutants);

/** The hidden transcripts as a program behaving like `learner` would answer them. */
function evidence(learner: (commands: readonly string[]) => Outcome): Evidence[] {
  return transcripts.map((t) => {
    const commands = t.steps.map((s) => s.command);
    return { name: t.name, commands, learner: learner(commands) };
  });
}

const mutant = (...mutations: string[]) => (commands: readonly string[]): Outcome => simulate(model, commands, new Set(mutations)).outcome;

describe('diagnosis', () => {
  it('the lesson maps every model mutation to exactly one mistake', () => {
    assert.deepEqual([...allMutations].sort(), model.mutations.map((m) => m.id).sort());
  });

  it('offers singles and every pair of mutations from different mistakes, never two from the same one', () => {
    const all = candidates(mistakes);
    const singles = all.filter((c) => c.mutations.length === 1);
    const pairs = all.filter((c) => c.mutations.length === 2);
    assert.equal(singles.length, allMutations.length);
    for (const p of pairs) assert.notEqual(p.mistakes[0], p.mistakes[1]);
    // tiebreak has 3 mutants, unknown-backend 2, the other three mistakes 1 each.
    const sizes = mistakes.map((m) => m.mutants.length);
    const expectedPairs = sizes.reduce((n, a, i) => n + sizes.slice(i + 1).reduce((m, b) => m + a * b, 0), 0);
    assert.equal(pairs.length, expectedPairs);
  });

  it('finds nothing to name for a program that answers like the reference', () => {
    const d = diagnose(model, mistakes, evidence(mutant()));
    assert.equal(d.kind, 'none');
    assert.deepEqual(d.findings, []);
    assert.deepEqual(d.failing, []);
  });

  for (const mutation of allMutations) {
    it(`names ${mutation} exactly, as mistake ${mistakeOf(mutation)}`, () => {
      const d = diagnose(model, mistakes, evidence(mutant(mutation)));
      assert.equal(d.kind, 'exact');
      assert.deepEqual(
        d.findings.map((f) => [f.mistake, f.mutation, f.confidence]),
        [[mistakeOf(mutation), mutation, 'exact']],
      );
      assert.deepEqual(d.mutations, [mutation]);
      assert.ok(d.findings[0]!.revealedBy.length > 0, 'names the transcripts that reveal it');
      // Every transcript said to reveal it is one the program fails.
      for (const name of d.findings[0]!.revealedBy) assert.ok(d.failing.includes(name), name);
    });
  }

  describe('pairs of mistakes are named both', () => {
    const pairs = candidates(mistakes).filter((c) => c.mutations.length === 2);
    for (const pair of pairs) {
      it(`${pair.mutations.join(' + ')}`, () => {
        const d = diagnose(model, mistakes, evidence(mutant(...pair.mutations)));
        assert.equal(d.kind, 'exact');
        assert.deepEqual(d.findings.map((f) => f.mistake).sort(), [...pair.mistakes].sort());
        assert.deepEqual(d.findings.map((f) => f.mutation).sort(), [...pair.mutations].sort());
        assert.ok(d.findings.every((f) => f.confidence === 'exact'));
      });
    }
  });

  it('an unknown behaviour is "unrecognised": a PICK that never picks', () => {
    const neverPicks = (commands: readonly string[]): Outcome => {
      const reference = simulate(model, commands);
      return { lines: reference.steps.flatMap((s) => (s.command === 'PICK' ? ['EMPTY'] : s.answer)), ending: 'finished' };
    };
    const d = diagnose(model, mistakes, evidence(neverPicks));
    assert.equal(d.kind, 'unrecognised');
    assert.deepEqual(d.findings, []);
    assert.ok(d.failing.length > 0);
  });

  it('does not name a mistake whose mutant agrees only after the program has already gone wrong', () => {
    // Answers like negative-count, except that its first departure (a PICK) is something no mutant does.
    const commands = ['POOL a b', 'DONE a', 'PICK', 'PICK', 'STATUS'];
    const negative = mutant('negative-count')(commands);
    assert.deepEqual(negative.lines, ['OK', 'OK', 'a', 'a', 'a:1', 'b:0']);
    const learner: Outcome = { lines: ['OK', 'OK', 'zz', 'a', 'a:1', 'b:0'], ending: 'finished' };
    const d = diagnose(model, mistakes, [{ name: 'only', commands, learner }]);
    assert.equal(d.kind, 'unrecognised');
    assert.deepEqual(d.findings, []);
  });

  it('names a partly matching mistake as partial, only with the transcripts whose first departure it explains', () => {
    // tiebreak-name, plus STATUS lines with a space after the colon (no mutant does that).
    const spaced = (commands: readonly string[]): Outcome => {
      const sim = simulate(model, commands, new Set(['tiebreak-name']));
      return { lines: sim.steps.flatMap((s) => (s.command === 'STATUS' ? s.answer.map((l) => l.replace(':', ': ')) : s.answer)), ending: sim.outcome.ending };
    };
    const ev = evidence(spaced);
    const d = diagnose(model, mistakes, ev);
    assert.equal(d.kind, 'partial');
    assert.deepEqual(d.findings.map((f) => [f.mistake, f.mutation, f.confidence]), [['tiebreak', 'tiebreak-name', 'partial']]);
    // pool-order-not-name departs at a tied PICK first: explained. three-picks departs at STATUS first: not.
    const revealed = d.findings[0]!.revealedBy;
    assert.ok(revealed.includes('pool-order-not-name'));
    assert.ok(!revealed.includes('three-picks'));
    for (const name of revealed) {
      const e = ev.find((x) => x.name === name)!;
      const reference = simulate(model, e.commands).outcome.lines;
      const firstDiff = e.learner.lines.findIndex((l, i) => l !== reference[i]);
      assert.ok(!/:/.test(reference[firstDiff] ?? ''), `${name} first departs at a PICK, not a STATUS line`);
    }
  });

  it('uses only what it is given: evidence without ties cannot name a tiebreak mistake', () => {
    const noTies: Evidence[] = [{ name: 'one-backend', commands: ['POOL a', 'PICK', 'PICK', 'STATUS'], learner: mutant('tiebreak-name')(['POOL a', 'PICK', 'PICK', 'STATUS']) }];
    assert.equal(diagnose(model, mistakes, noTies).kind, 'none');
  });
});
