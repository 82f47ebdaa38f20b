import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diagnose, rarelyContradicted, type MistakeMutants } from '../../src/core/diagnosis/diagnose';
import { parseManifest } from '../../src/core/pack/manifest';
import { model } from '../../lessons/least-connections/model/model';
import { simulate, type Outcome } from '../../src/core/model/simulate';
import type { CandidateTally, EvidenceStream, StepRef, Walk } from '../../src/core/diagnosis/stepwise';
import { admit } from '../../src/core/diagnosis/admission';
import { parseTranscripts, type Transcript } from '../../src/core/model/transcript';
import { seededRandom } from '../../src/core/model/random';

const LESSON = path.join(__dirname, '..', '..', 'lessons', 'least-connections');

function loadLesson(): { mistakes: MistakeMutants[]; transcripts: Transcript[] } {
  const parsed = parseManifest(fs.readFileSync(path.join(LESSON, 'lesson.json'), 'utf8'), 'lesson.json');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const transcripts = parsed.manifest.transcripts.flatMap((file) =>
    parseTranscripts(fs.readFileSync(path.join(LESSON, file), 'utf8'), file),
  );
  return { mistakes: parsed.manifest.mistakes, transcripts };
}

const { mistakes, transcripts } = loadLesson();
const mistakeOf = (mutation: string): string => mistakes.find((m) => m.mutants.includes(mutation))!.id;
const allMutations = mistakes.flatMap((m) => m.mutants);
const free = new Set(model.mutations.filter((m) => m.nondeterministic).map((m) => m.id));
const deterministic = allMutations.filter((m) => !free.has(m));

type Program = (commands: readonly string[]) => Outcome;

/** Every hidden transcript through one process, each after POOL, as the check's batch does. */
function evidence(program: Program): EvidenceStream[] {
  const commands: string[] = [];
  const segments: { list: number; start: number; length: number }[] = [];
  transcripts.forEach((t, list) => {
    segments.push({ list, start: commands.length, length: t.steps.length + 1 });
    commands.push('POOL', ...t.steps.map((s) => s.command));
  });
  const outcome = program(commands);
  return [{ commands, lines: outcome.lines, ending: outcome.ending, segments }];
}

const mutant =
  (...mutations: string[]): Program =>
  (commands) =>
    simulate(model, commands, new Set(mutations)).outcome;

/** A program written like the reference, but choosing among tied backends with a seeded coin. */
function randomTies(seed: number, ...mutations: string[]): Program {
  return (commands) => {
    const random = seededRandom(seed);
    let state = model.initial();
    const lines: string[] = [];
    for (const command of commands) {
      const step = model.step(state, command, new Set(['tiebreak-any', ...mutations]));
      if (step.answer.kind === 'crash') return { lines, ending: 'crashed' };
      const options = [step.answer.lines, ...(step.alternatives ?? [])];
      const answer = options[random.int(options.length)]!;
      lines.push(...answer);
      state = model.step(state, command, new Set(mutations), answer).state;
    }
    return { lines, ending: 'finished' };
  };
}

describe('diagnosis, step by step', () => {
  it('the lesson maps every model mutation to exactly one mistake', () => {
    assert.deepEqual([...allMutations].sort(), model.mutations.map((m) => m.id).sort());
    assert.equal(new Set(allMutations).size, allMutations.length);
  });

  it('finds nothing to name for a program that answers like the reference', () => {
    const d = diagnose(model, mistakes, evidence(mutant()));
    assert.deepEqual(d.findings, []);
    assert.equal(d.differingCount, 0);
  });

  for (const mutation of deterministic) {
    it(`names ${mutation} exactly, as mistake ${mistakeOf(mutation)}`, () => {
      const d = diagnose(model, mistakes, evidence(mutant(mutation)));
      assert.deepEqual(
        d.findings.map((f) => [f.mistake, f.mutation, f.confidence]),
        [[mistakeOf(mutation), mutation, 'exact']],
      );
      assert.ok(d.findings[0]!.stepCount > 0, 'counts the commands that show it');
      assert.deepEqual(d.unexplained, []);
    });
  }

  describe('pairs of mistakes are named both', () => {
    const pairs: [string, string][] = [];
    deterministic.forEach((a, i) =>
      deterministic.slice(i + 1).forEach((b) => mistakeOf(a) !== mistakeOf(b) && pairs.push([a, b])),
    );
    for (const [a, b] of pairs) {
      it(`${a} + ${b}`, () => {
        const d = diagnose(model, mistakes, evidence(mutant(a, b)));
        const behaves = simulate(model, evidence(mutant())[0]!.commands, new Set([a, b])).outcome;
        const alone = [a, b].map((m) => simulate(model, evidence(mutant())[0]!.commands, new Set([m])).outcome);
        // Some pairs hide one mistake behind the other (a crash before the second shows; a count that only
        // grows never goes below zero): then one is enough.
        if (alone.some((one) => behaves.lines.join() === one.lines.join() && behaves.ending === one.ending)) return;
        assert.deepEqual(d.findings.map((f) => f.mistake).sort(), [mistakeOf(a), mistakeOf(b)].sort());
      });
    }
  });

  it('random ties: the tiebreak is named through the free-choice mutation, and a second mistake is not hidden', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const d = diagnose(model, mistakes, evidence(randomTies(seed, 'negative-count')), { random: true });
      assert.deepEqual(d.findings.map((f) => f.mistake).sort(), ['negative-count', 'tiebreak'], `seed ${seed}`);
      assert.ok(d.findings.find((f) => f.mistake === 'tiebreak')!.nondeterministic);
      assert.deepEqual(d.unexplained, [], `seed ${seed}`);
    }
  });

  it('an unsigned 64-bit counter is the negative count, in its wrap-around form', () => {
    const d = diagnose(model, mistakes, evidence(mutant('wrap-64')));
    assert.deepEqual(
      d.findings.map((f) => [f.mistake, f.mutation]),
      [['negative-count', 'wrap-64']],
    );
  });

  it('does not blame the tiebreak for a wrapped counter that is never picked again', () => {
    const d = diagnose(model, mistakes, evidence(mutant('wrap-32')));
    assert.ok(!d.findings.some((f) => f.mistake === 'tiebreak'));
  });

  it('never accuses late-increment when STATUS right after a PICK shows the count up', () => {
    // Picks the *second* least loaded backend: a difference no mistake explains, which no-increment would mimic at PICKs.
    const secondBest: Program = (commands) => {
      let state = model.initial();
      const lines: string[] = [];
      for (const command of commands) {
        const step = model.step(state, command, new Set());
        let answer = step.answer.kind === 'lines' ? step.answer.lines : [];
        if (command === 'PICK' && answer[0] !== 'EMPTY') {
          const counts = model.snapshot(state) as Record<string, number>;
          const pool = Object.keys(counts);
          const ordered = [...pool].sort((x, y) => counts[x]! - counts[y]!);
          answer = [ordered[Math.min(1, ordered.length - 1)]!];
        }
        lines.push(...answer);
        state = model.step(state, command, new Set(), answer).state;
      }
      return { lines, ending: 'finished' };
    };
    const d = diagnose(model, mistakes, evidence(secondBest));
    assert.ok(
      !d.findings.some((f) => f.mistake === 'late-increment'),
      JSON.stringify(d.findings.map((f) => f.mistake)),
    );
    assert.ok(d.unexplained.length > 0);
    assert.match(d.unexplained[0]!.sentence, /^PICK chose \S+ with \d+ in flight while \S+ had \d+$/);
  });

  it('an unknown behaviour is unexplained, with a sentence: a PICK that never picks', () => {
    const neverPicks: Program = (commands) => {
      const reference = simulate(model, commands);
      return {
        lines: reference.steps.flatMap((s) => (s.command === 'PICK' ? ['EMPTY'] : s.answer)),
        ending: 'finished',
      };
    };
    const d = diagnose(model, mistakes, evidence(neverPicks));
    assert.deepEqual(d.findings, []);
    assert.ok(d.unexplained.length > 0);
  });

  it('uses only what it is given: evidence without ties cannot name a tiebreak mistake', () => {
    const commands = ['POOL a', 'PICK', 'PICK', 'STATUS'];
    const outcome = mutant('tiebreak-name')(commands);
    const d = diagnose(model, mistakes, [
      { commands, lines: outcome.lines, ending: outcome.ending, segments: [{ list: 0, start: 0, length: 4 }] },
    ]);
    assert.deepEqual(d.findings, []);
  });

  it('bounds the candidates a pack can make it try', () => {
    const many: MistakeMutants[] = Array.from({ length: 500 }, (_, i) => ({
      id: `m${i}`,
      mutants: [allMutations[i % allMutations.length]!],
    }));
    const d = diagnose(model, many, evidence(mutant('negative-count')));
    assert.ok(d.findings.length >= 1);
  });
});

/** What diagnose() was given in a real check, saved as a fixture (test/fixtures/evidence/, each with its "about"). */
function recordedEvidence(file: string): {
  mistakes: MistakeMutants[];
  streams: EvidenceStream[];
  options: { random?: boolean };
} {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'evidence', file), 'utf8'));
}

describe('diagnosis of a program that chooses at random', () => {
  // Recorded from a real check (see the file's "about"): the program's random PICKs all happened to agree with
  // some fixed tie rule, so PICK did not look unreliable, and the count below zero in its STATUS lines, which a
  // PICK now and then contradicted by chance, was not admitted.
  const recorded = recordedEvidence('p2c-negative-chance.json');

  it('names the count below zero: a fixed rule is not held to commands where the program chooses at random', () => {
    const d = diagnose(model, recorded.mistakes, recorded.streams, recorded.options);
    assert.deepEqual(
      d.findings.map((f) => f.mistake),
      ['negative-count'],
    );
    assert.ok(
      d.findings[0]!.steps.some((s) => s.command === 'STATUS'),
      'its evidence includes the STATUS lines that show the count',
    );
    // p2c's picks of a busier backend are no mistake of the lesson: still said as differences it has no name for.
    assert.ok(d.unexplained.length > 0);
  });

  it('the same evidence, not known to be random, holds fixed rules to every command (and names nothing)', () => {
    const d = diagnose(model, recorded.mistakes, recorded.streams, { random: false });
    assert.deepEqual(
      d.findings.map((f) => f.mistake),
      [],
    );
  });
});

describe('diagnosis of a deterministic program with a quirk of its own beside a mistake', () => {
  const recorded = recordedEvidence('sentinel-negative-rare-contradiction.json');

  it('names the mistake a mutation explains everywhere but at one command its quirk decides, and says the rest as a difference', () => {
    assert.notEqual(recorded.options.random, true);
    const d = diagnose(model, recorded.mistakes, recorded.streams, recorded.options);
    assert.deepEqual(
      d.findings.map((f) => f.mistake),
      ['negative-count'],
    );
    assert.ok(d.unexplained.length > 0, "the sentinel's picks are still a difference no mistake explains");
    // The name holds only if the program never draws at random: the check is told to make sure first.
    assert.equal(d.restsOnDeterminism, true);
  });

  it('a verdict contradicted nowhere does not ask for more fresh runs', () => {
    const plain = recordedEvidence('p2c-negative-chance.json');
    const d = diagnose(model, plain.mistakes, plain.streams, plain.options);
    assert.ok(d.findings.length > 0);
    assert.notEqual(d.restsOnDeterminism, true);
  });

  it('a candidate seen only where the program is not understood stays out when it claims answers of its own the program does not bear out', () => {
    // An LRU pack's KEYS sorted by key: "least recently used first" gives the same rows wherever the keys happen to
    // be in reverse order of use, and a third order of its own elsewhere (issue 31: named, likely). A Counter that
    // drops rows at 0 is "skips unseen backends" where it gives fewer wrong rows than the reference: kept.
    const step = (command: string, index: number): StepRef =>
      ({ stream: 0, index, list: 0, listIndex: index, command }) as StepRef;
    const unexplainedKeys = step('KEYS', 99);
    const tally = (support: StepRef[], otherAnswers: number): CandidateTally => ({
      candidate: { mutations: ['keys-oldest-first'], nondeterministic: false },
      support,
      supportCount: support.length,
      against: 0,
      againstByVerb: new Map(),
      firstAgainst: null,
      otherAnswers,
      exact: false,
    });
    const walk = (tallies: CandidateTally[]): Walk => ({
      tallies,
      differing: [],
      differingCount: 0,
      sentences: [{ step: unexplainedKeys, sentence: 'KEYS in an order of its own' }],
      differingKeys: new Set(),
    });
    const admitted = (t: CandidateTally): boolean => admit([t], walk([t]), false).admissible.includes(t);
    const keys = [step('KEYS', 1), step('KEYS', 2)];
    assert.equal(admitted(tally(keys, 1)), false, 'only at KEYS, and a third order of its own there');
    assert.equal(admitted(tally(keys, 0)), true, 'only at KEYS, nothing claimed against the program');
    assert.equal(admitted(tally([...keys, step('GET a', 3)], 1)), true, 'also where the program is understood');
  });

  it('a candidate contradicted at more than two commands, or with less than twenty times the support, or only supported where it is contradicted, stays out', () => {
    const step = (command: string, index: number): StepRef => ({ stream: 0, index, command }) as StepRef;
    const tally = (support: string[], against: Record<string, number>): CandidateTally => ({
      candidate: { mutations: ['negative-count'], nondeterministic: false },
      support: support.map(step),
      supportCount: support.length,
      against: Object.values(against).reduce((a, b) => a + b, 0),
      againstByVerb: new Map(Object.entries(against)),
      firstAgainst: null,
      exact: false,
    });
    const many = (n: number, verb: string): string[] => Array.from({ length: n }, () => verb);
    assert.equal(rarelyContradicted(tally([...many(40, 'STATUS'), ...many(14, 'PICK')], { PICK: 1 }), false), true);
    assert.equal(
      rarelyContradicted(tally([...many(40, 'STATUS'), ...many(14, 'PICK')], { PICK: 1 }), true),
      false,
      'not for a random program',
    );
    assert.equal(rarelyContradicted(tally(many(100, 'STATUS'), { PICK: 3 }), false), false, 'three contradictions');
    assert.equal(
      rarelyContradicted(tally(many(39, 'STATUS'), { PICK: 2 }), false),
      false,
      'less than twenty per contradiction',
    );
    assert.equal(rarelyContradicted(tally(many(40, 'STATUS'), { PICK: 2 }), false), true);
    assert.equal(
      rarelyContradicted(tally(many(60, 'PICK'), { PICK: 1 }), false),
      false,
      'supported only where it is contradicted',
    );
  });
});
