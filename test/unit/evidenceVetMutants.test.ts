/**
 * Every finding through the evidence of its own counterexample (vetFindings in src/core/diagnosis/evidence.ts),
 * where test/unit/evidence.test.ts leaves it open (its surviving mutants): which form of a mistake is named in
 * place of the one found (with its partner kept, and free when the form is), the program's other mistakes and a
 * pair's partner on while a finding is replayed, choices in a random program, counts a card states that the
 * trace never shows, a mistake the catalogue does not list, what the learner is told of a finding that is not
 * named, and when a special form gives way to the plain one (a random program, or differences no mistake
 * explains, where the two forms give the same counts). The lessons are the one-count toy of
 * test/unit/evidenceToys.ts, written per test.
 */
import * as assert from 'node:assert/strict';
import { vetFindings, type VetInput } from '../../src/core/diagnosis/evidence';
import type { Finding, MistakeMutants } from '../../src/core/diagnosis/diagnose';
import type { ReferenceModel } from '../../src/core/model/model';
import type { Counterexample } from '../../src/core/report/report';
import { blind, counter, countLine, traceOf } from './evidenceToys';

/** A finding as the diagnosis names it: likely, deterministic, through `mutation` alone unless told. */
function finding(mistake: string, mutation: string, over: Partial<Finding> = {}): Finding {
  return {
    mistake,
    mutation,
    mutations: [mutation],
    confidence: 'likely',
    nondeterministic: false,
    steps: [],
    stepCount: 1,
    ...over,
  };
}

type Options = Partial<Pick<VetInput<Finding>, 'random' | 'unexplained' | 'cardText'>>;

/** The findings vetted on one example each (the same one), with cards that state no count unless told. */
function vet(
  model: ReferenceModel,
  catalogue: readonly MistakeMutants[],
  findings: readonly Finding[],
  example: Counterexample,
  options: Options = {},
) {
  return vetFindings({
    model,
    catalogue,
    findings,
    examples: findings.map(() => example),
    cardText: () => '',
    ...options,
  });
}

describe('vetting findings against their traces: the surviving mutants', () => {
  it("names the form of a mistake the counts bear out, with the pair's partner kept, as a likely and fixed finding", () => {
    // INC adds two under inc-two, three under inc-three; pick-b answers b at PICK.
    const model = counter({
      mutations: ['inc-two', 'inc-three', 'pick-b'],
      answer: (command, on) => (command === 'PICK' ? [on.has('pick-b') ? 'b' : 'a'] : undefined),
      next: (command, on, n) => (command === 'INC' ? n + (on.has('inc-three') ? 3 : on.has('inc-two') ? 2 : 1) : n),
    });
    const catalogue = [
      { id: 'over-count', mutants: ['inc-two', 'inc-three'] },
      { id: 'tiebreak', mutants: ['pick-b'] },
    ];
    const found = finding('over-count', 'inc-two', { mutations: ['inc-two', 'pick-b'], confidence: 'exact' });
    const [v] = vet(model, catalogue, [found], traceOf(model, ['INC', 'PICK'], 'inc-three', 'pick-b'));
    assert.deepEqual(v, {
      kind: 'kept',
      finding: {
        ...found,
        mutation: 'inc-three',
        mutations: ['inc-three', 'pick-b'],
        nondeterministic: false,
        confidence: 'likely',
      },
      example: v!.example,
    });
  });

  it('names a free form as free: a tie the program may break either way', () => {
    const model = counter({
      mutations: ['pick-b', { id: 'pick-any', description: 'any of a, b, c', nondeterministic: true }],
      answer: (command, on) =>
        command !== 'PICK'
          ? undefined
          : on.has('pick-any')
            ? { lines: ['a'], alternatives: [['b'], ['c']] }
            : [on.has('pick-c') ? 'c' : on.has('pick-b') ? 'b' : 'a'],
    });
    const found = finding('tiebreak', 'pick-b');
    const [v] = vet(
      model,
      [{ id: 'tiebreak', mutants: ['pick-b', 'pick-any'] }],
      [found],
      traceOf(model, ['PICK'], 'pick-c'),
    );
    assert.equal(v!.kind, 'kept');
    assert.deepEqual([v!.finding.mutation, v!.finding.nondeterministic], ['pick-any', true]);
  });

  describe('other mistakes of the program', () => {
    // Each adds one at INC: the program with both counts three.
    const adding = () =>
      counter({
        next: (command, on, n) =>
          command === 'INC' ? n + (on.has('inc-two') ? 2 : 1) + (on.has('inc-extra') ? 1 : 0) : n,
      });
    const catalogue = [
      { id: 'double', mutants: ['inc-two'] },
      { id: 'extra', mutants: ['inc-extra'] },
    ];

    it('are on while each finding is replayed, so that a count they make together bears both out', () => {
      const model = adding();
      const both = [finding('double', 'inc-two'), finding('extra', 'inc-extra')];
      const vetted = vet(model, catalogue, both, traceOf(model, ['INC'], 'inc-two', 'inc-extra'));
      assert.deepEqual(
        vetted.map((v) => [v.kind, v.finding]),
        both.map((f) => ['kept', f]),
      );
    });

    it('include the partner of a pair finding', () => {
      const model = adding();
      const pair = finding('double', 'inc-two', { mutations: ['inc-two', 'inc-extra'] });
      assert.deepEqual(
        vet(model, catalogue, [pair], traceOf(model, ['INC'], 'inc-two', 'inc-extra')).map((v) => [v.kind, v.finding]),
        [['kept', pair]],
      );
    });
  });

  it('holds a wrong choice against a mistake, but not in a random program when the mistake itself chooses by rule', () => {
    // pick-c answers b while the count is 0, c after; pick-b always b.
    const model = counter({
      answer: (command, on, n) =>
        command === 'PICK'
          ? [on.has('pick-c') && n > 0 ? 'c' : on.has('pick-b') || on.has('pick-c') ? 'b' : 'a']
          : undefined,
      next: (command, _on, n) => (command === 'INC' ? n + 1 : n),
    });
    const catalogue = [{ id: 'tiebreak', mutants: ['pick-b'] }];
    const example = traceOf(model, ['PICK', 'INC', 'PICK'], 'pick-c');
    const found = finding('tiebreak', 'pick-b');
    assert.deepEqual(vet(model, catalogue, [found], example), [
      { kind: 'dropped', finding: found, example, shown: `\`PICK\` answered c while your counts were ${countLine(1)}` },
    ]);
    assert.deepEqual(vet(model, catalogue, [found], example, { random: true }), [
      { kind: 'kept', finding: found, example },
    ]);
  });

  it('does not name a finding whose card states counts its trace never shows, unless the trace has no counts', () => {
    const model = counter({
      answer: (command, on) => (command === 'PICK' ? [on.has('pick-b') ? 'b' : 'a'] : undefined),
      next: (command, _on, n) => (command === 'INC' ? n + 1 : n),
    });
    const stated = ['65535', '99999'];
    const cardText = () => `ties go to b, as if a had ${stated[0]} in flight and c ${stated[1]}`;
    const found = finding('tiebreak', 'pick-b');
    const catalogue = [{ id: 'tiebreak', mutants: ['pick-b'] }];
    const example = traceOf(model, ['INC', 'PICK'], 'pick-b');
    assert.deepEqual(vet(model, catalogue, [found], example, { cardText }), [
      { kind: 'dropped', finding: found, example, shown: `your counts never show ${stated.join(' or ')}` },
    ]);
    const unseen = traceOf(blind(model), ['INC', 'PICK'], 'pick-b');
    assert.deepEqual(vet(model, catalogue, [found], unseen, { cardText }), [
      { kind: 'kept', finding: found, example: unseen },
    ]);
  });

  it('keeps a finding its trace bears out whose mistake the catalogue does not list', () => {
    const model = counter({
      answer: (command, on) => (command === 'PICK' ? [on.has('pick-b') ? 'b' : 'a'] : undefined),
    });
    const found = finding('tiebreak', 'pick-b');
    const example = traceOf(model, ['PICK'], 'pick-b');
    assert.deepEqual(vet(model, [], [found], example), [{ kind: 'kept', finding: found, example }]);
  });

  it('does not name a form its trace contradicts after bearing it out at first, and says what contradicts the one found', () => {
    // inc-two and inc-three add two and three; pick-b-inc-four answers b at PICK and adds four.
    const model = counter({
      answer: (command, on) =>
        command === 'PICK' ? [on.has('pick-b') || on.has('pick-b-inc-four') ? 'b' : 'a'] : undefined,
      next: (command, on, n) =>
        command === 'INC'
          ? n + (on.has('pick-b-inc-four') ? 4 : on.has('inc-three') ? 3 : on.has('inc-two') ? 2 : 1)
          : n,
    });
    const found = finding('over-count', 'inc-two');
    const example = traceOf(model, ['PICK', 'INC'], 'pick-b', 'inc-three');
    const [v] = vet(model, [{ id: 'over-count', mutants: ['inc-two', 'pick-b-inc-four'] }], [found], example);
    assert.deepEqual(v, {
      kind: 'dropped',
      finding: found,
      example,
      shown: `after \`INC\` your counts were ${countLine(3)} where they should be ${countLine(1)}`,
    });
  });

  describe('a finding whose mistake says nothing in its trace', () => {
    // X answers x (w under x-w, a crash under x-crash); Z answers z (z2 under the mistake z-mistake).
    const model = () =>
      counter({
        answer: (command, on) =>
          command === 'X'
            ? on.has('x-crash')
              ? 'crash'
              : [on.has('x-w') ? 'w' : 'x']
            : command === 'Z'
              ? [on.has('z-mistake') ? 'z2' : 'z']
              : undefined,
        next: (command, _on, n) => (command === 'INC' ? n + 1 : n),
      });
    const catalogue = [{ id: 'z', mutants: ['z-mistake'] }];

    it('is not named, and the learner is shown the first wrong answer with the counts before it', () => {
      const toy = model();
      const example = traceOf(toy, ['INC', 'X', 'INC'], 'x-w');
      const [v] = vet(toy, catalogue, [finding('z', 'z-mistake')], example);
      assert.equal(v!.kind, 'dropped');
      assert.equal(
        v!.kind === 'dropped' && v.shown,
        `\`X\` answered w where the reference answers x while your counts were ${countLine(1)}`,
      );
    });

    it('is not named, and a first command the program never answered is shown as such', () => {
      const toy = model();
      const example = traceOf(toy, ['X', 'INC'], 'x-crash');
      const [v] = vet(toy, catalogue, [finding('z', 'z-mistake')], example);
      assert.equal(v!.kind === 'dropped' && v.shown, '`X` answered nothing where the reference answers x');
    });
  });

  describe('a special form the plain form explains as well', () => {
    /**
     * X answers x: y under every form below. INC adds one: two under plain and special, three under
     * special-more, four under plain-over, capped at 1 under cap. Z answers z: z2 under special, z3 under
     * plain-elsewhere. A program printing its count crashes above 1 under count-breaks; BOOM crashes under boom.
     */
    const forms = () =>
      counter({
        answer: (command, on, n) => {
          if (command === 'X')
            return [
              ['plain', 'special', 'special-more', 'plain-over', 'plain-choice'].some((m) => on.has(m)) ? 'y' : 'x',
            ];
          if (command === 'Z') return [on.has('special') ? 'z2' : on.has('plain-elsewhere') ? 'z3' : 'z'];
          if (command === 'BOOM') return on.has('boom') ? 'crash' : undefined;
          return command === 'COUNT' && on.has('count-breaks') && n > 1 ? 'crash' : undefined;
        },
        next: (command, on, n) => {
          if (command !== 'INC') return n;
          const raised =
            n + (on.has('special-more') ? 3 : on.has('plain-over') ? 4 : on.has('plain') || on.has('special') ? 2 : 1);
          return on.has('cap') ? Math.min(raised, 1) : raised;
        },
      });
    const plainOf = (f: Finding, plain: string): Finding => ({
      ...f,
      mutation: plain,
      mutations: [plain],
      nondeterministic: false,
      confidence: 'likely',
    });

    it('is named as found where the program is not random and differs nowhere else', () => {
      const model = forms();
      const found = finding('m', 'special');
      const example = traceOf(model, ['X', 'INC'], 'special');
      assert.deepEqual(vet(model, [{ id: 'm', mutants: ['plain', 'special'] }], [found], example), [
        { kind: 'kept', finding: found, example },
      ]);
    });

    it('gives way to the plain form in a random program, or one that also differs in ways no mistake explains, when likely', () => {
      const model = forms();
      const catalogue = [{ id: 'm', mutants: ['plain', 'special'] }];
      const found = finding('m', 'special');
      const example = traceOf(model, ['X', 'INC'], 'special');
      const plain = [{ kind: 'kept', finding: plainOf(found, 'plain'), example }];
      assert.deepEqual(vet(model, catalogue, [found], example, { random: true }), plain);
      assert.deepEqual(vet(model, catalogue, [found], example, { unexplained: true }), plain);
      const exact = { ...found, confidence: 'exact' as const };
      assert.deepEqual(vet(model, catalogue, [exact], example, { random: true }), [
        { kind: 'kept', finding: exact, example },
      ]);
    });

    it('is kept in a random program where the plain form is not borne out, or is contradicted by the counts', () => {
      const model = forms();
      const found = finding('m', 'special-more');
      const example = traceOf(model, ['X', 'INC'], 'special-more');
      for (const plain of ['plain-elsewhere', 'plain-over']) {
        assert.deepEqual(
          vet(model, [{ id: 'm', mutants: [plain, 'special-more'] }], [found], example, { random: true }),
          [{ kind: 'kept', finding: found, example }],
          plain,
        );
      }
    });

    it('gives way, under differences no mistake explains, only where both forms give the same counts, with the other mistakes on', () => {
      const model = forms();
      const catalogue = [
        { id: 'm', mutants: ['plain-choice', 'special-more'] },
        { id: 'capped', mutants: ['cap'] },
      ];
      const found = finding('m', 'special-more');
      // special-more counts three at INC where plain-choice counts one.
      const example = traceOf(model, ['X', 'INC'], 'special-more');
      assert.deepEqual(vet(model, catalogue, [found], example, { unexplained: true }), [
        { kind: 'kept', finding: found, example },
      ]);
      // With the cap the program also has, both count one.
      const capped = traceOf(model, ['X', 'INC'], 'special-more', 'cap');
      const [v] = vet(model, catalogue, [found, finding('capped', 'cap')], capped, { unexplained: true });
      assert.deepEqual(v, { kind: 'kept', finding: plainOf(found, 'plain-choice'), example: capped });
    });

    it('compares the counts only up to where the program stopped, or printed none, and not in a trace without counts', () => {
      const model = forms();
      const catalogue = [{ id: 'm', mutants: ['plain-choice', 'special-more'] }];
      const found = finding('m', 'special-more');
      const plain = (example: Counterexample) => [{ kind: 'kept', finding: plainOf(found, 'plain-choice'), example }];
      // The program crashed at BOOM, before INC would tell the two forms apart.
      const stopped = traceOf(model, ['X', 'BOOM', 'INC'], 'special-more', 'boom');
      assert.deepEqual(vet(model, catalogue, [found], stopped, { unexplained: true }), plain(stopped));
      // The program printed no count after INC.
      const silent = traceOf(model, ['X', 'INC'], 'special-more', 'count-breaks');
      assert.equal(silent.trace[1]!.observed, null);
      assert.deepEqual(vet(model, catalogue, [found], silent, { unexplained: true }), plain(silent));
      // plain and special differ only at Z: the same counts, but a trace without counts cannot show it.
      const unseen = traceOf(blind(model), ['X', 'INC'], 'special');
      const special = finding('m', 'special');
      assert.deepEqual(
        vet(model, [{ id: 'm', mutants: ['plain', 'special'] }], [special], unseen, { unexplained: true }),
        [{ kind: 'kept', finding: special, example: unseen }],
      );
    });
  });
});
