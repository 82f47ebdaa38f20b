/**
 * The verdicts of diagnose() that test/unit/diagnose.test.ts leaves open (its surviving mutants), on toy table
 * models (test/unit/diagnoseToys.ts) where each test writes which mutation changes which command: which mistake a
 * mutation listed twice belongs to, the bound on single candidates, which kinds of command are unreliable,
 * admission of a rarely contradicted candidate only for a program known to be deterministic, which pairs are
 * tried, and how the greedy cover breaks ties. What is asserted is what reaches the learner: which mistake is
 * named through which mutation, exact or likely, and which commands stay unexplained.
 */
import * as assert from 'node:assert/strict';
import { diagnose, MAX_SINGLE_CANDIDATES, rarelyContradicted } from '../../src/core/diagnosis/diagnose';
import type { CandidateTally, StepRef } from '../../src/core/diagnosis/stepwise';
import { answerOf, commandsOf, mistakesOf, plain, streamsOf, tableModel } from './diagnoseToys';

const named = (d: ReturnType<typeof diagnose>): [string, string, string][] =>
  d.findings.map((f) => [f.mistake, f.mutation, f.confidence]);

describe('diagnose: which mistake, and which mutations are candidates', () => {
  it('a mutation listed under two mistakes belongs to the first that lists it', () => {
    const model = tableModel({ mutations: ['m'], answer: (c, on) => (c === 'X 1' && on.has('m') ? 'X!' : undefined) });
    const d = diagnose(model, mistakesOf({ first: ['m'], second: ['m'] }), streamsOf([['X 1']], answerOf(model, 'm')));
    assert.deepEqual(named(d), [['first', 'm', 'exact']]);
  });

  it(`tries only the first ${MAX_SINGLE_CANDIDATES} mutations of a pack alone`, () => {
    const ids = Array.from({ length: MAX_SINGLE_CANDIDATES + 1 }, (_, i) => `m${i}`);
    const last = ids[ids.length - 1]!;
    const model = tableModel({ mutations: ids, answer: (c, on) => (c === 'X 1' && on.has(last) ? 'X!' : undefined) });
    const mistakes = mistakesOf(Object.fromEntries(ids.map((id) => [`mistake-${id}`, [id]])));
    const d = diagnose(model, mistakes, streamsOf([['X 1']], answerOf(model, last)));
    assert.deepEqual(d.findings, []);
    assert.deepEqual(commandsOf(d.unexplained.map((u) => u.step)), ['X 1']);
    // One place earlier, it is tried and named.
    const within = ids[MAX_SINGLE_CANDIDATES - 1]!;
    const model2 = tableModel({
      mutations: ids,
      answer: (c, on) => (c === 'X 1' && on.has(within) ? 'X!' : undefined),
    });
    assert.deepEqual(named(diagnose(model2, mistakes, streamsOf([['X 1']], answerOf(model2, within)))), [
      [`mistake-${within}`, within, 'exact'],
    ]);
  });

  it('a program whose answers a free choice could give is never named exactly, even by a pair that gives them first', () => {
    const model = tableModel({
      mutations: ['d', 'n'],
      free: ['n'],
      answer: (c, on) => (c === 'X 1' && on.has('d') ? 'X!' : c === 'W 1' && on.has('n') ? 'W!' : undefined),
    });
    const d = diagnose(
      model,
      mistakesOf({ alpha: ['d'], beta: ['n'] }),
      streamsOf([['X 1', 'W 1']], answerOf(model, 'd', 'n')),
    );
    assert.deepEqual(named(d), [
      ['alpha', 'd', 'likely'],
      ['beta', 'n', 'likely'],
    ]);
    assert.deepEqual(d.unexplained, []);
  });
});

describe('diagnose: which kinds of command are unreliable', () => {
  it('a kind of command the program gets wrong unexplained (commands with leading blanks too) does not rule out a candidate supported elsewhere', () => {
    // m explains A; at B it would answer B! where the program once answered like the reference, and once "zz".
    const model = tableModel({
      mutations: ['m'],
      answer: (c, on) =>
        on.has('m') && c.trim().startsWith('A') ? 'A!' : on.has('m') && c.trim().startsWith('B') ? 'B!' : undefined,
    });
    const program = (c: string): string => (c === ' B 2' ? 'zz' : c.startsWith('A') ? 'A!' : plain(c));
    const d = diagnose(model, mistakesOf({ alpha: ['m'] }), streamsOf([['A 1', ' B 1', ' B 2']], program));
    assert.deepEqual(named(d), [['alpha', 'm', 'likely']]);
    assert.deepEqual(commandsOf(d.findings[0]!.steps), ['A 1']);
    assert.deepEqual(commandsOf(d.unexplained.map((u) => u.step)), [' B 2']);
    assert.equal(d.unexplainedCount, 1);
  });
});

describe('diagnose: a candidate contradicted once among many it explains', () => {
  // m explains twenty A commands and is contradicted at B 1; k explains C 1; the pair is contradicted at D 1 too.
  const build = () => {
    const as = Array.from({ length: 20 }, (_, i) => `A ${i}`);
    const model = tableModel({
      mutations: ['m', 'k'],
      answer: (c, on) => {
        if (c.startsWith('A') && on.has('m')) return 'A!';
        if (c === 'B 1' && on.has('m')) return 'B!';
        if (c === 'C 1' && on.has('k')) return 'C!';
        if (c === 'D 1' && on.has('m') && on.has('k')) return 'D!';
        return undefined;
      },
    });
    const program = (c: string): string => (c.startsWith('A') ? 'A!' : c === 'C 1' ? 'C!' : plain(c));
    return {
      as,
      model,
      mistakes: mistakesOf({ alpha: ['m'], beta: ['k'] }),
      streams: streamsOf([[...as, 'B 1', 'C 1', 'D 1']], program),
    };
  };

  it('is named only once the program is known to answer the same on fresh runs, and the verdict says it rests on that', () => {
    const { as, model, mistakes, streams } = build();
    const known = diagnose(model, mistakes, streams, { random: false });
    assert.deepEqual(named(known), [
      ['alpha', 'm', 'likely'],
      ['beta', 'k', 'likely'],
    ]);
    assert.equal(known.restsOnDeterminism, true);
    assert.deepEqual(known.unexplained, []);
    // Not yet known to be deterministic: m stays out, and what it explains is unexplained.
    const unknown = diagnose(model, mistakes, streams);
    assert.deepEqual(named(unknown), [['beta', 'k', 'likely']]);
    assert.equal(unknown.unexplainedCount, as.length);
    assert.equal(unknown.restsOnDeterminism, undefined);
  });

  it('a kind of command counted zero times is no contradiction', () => {
    const step = (command: string, index: number): StepRef => ({
      stream: 0,
      index,
      list: 0,
      listIndex: index,
      command,
    });
    const support = Array.from({ length: 40 }, (_, i) => step('STATUS', i));
    const tally: CandidateTally = {
      candidate: { mutations: ['m'], nondeterministic: false },
      support,
      supportCount: support.length,
      against: 1,
      againstByVerb: new Map([
        ['STATUS', 0],
        ['PICK', 1],
      ]),
      firstAgainst: null,
      exact: false,
    };
    assert.equal(rarelyContradicted(tally, false), true);
  });
});

describe('diagnose: which pairs are tried', () => {
  // Y answers Y! only with both a and b on.
  const both = (c: string, on: ReadonlySet<string>): string | undefined =>
    c === 'Y 1' && on.has('a') && on.has('b') ? 'Y!' : undefined;

  it('a pair of mutations neither of which shows alone is not tried', () => {
    const model = tableModel({ mutations: ['a', 'b'], answer: both });
    const d = diagnose(
      model,
      mistakesOf({ alpha: ['a'], beta: ['b'] }),
      streamsOf([['Y 1']], answerOf(model, 'a', 'b')),
    );
    assert.deepEqual(d.findings, []);
    assert.equal(d.unexplainedCount, 1);
    const withMore = diagnose(
      model,
      mistakesOf({ alpha: ['a'], beta: ['b'] }),
      streamsOf([['Y 1', 'Z 1']], (c) => (c === 'Z 1' ? 'zz' : answerOf(model, 'a', 'b')(c))),
    );
    assert.deepEqual(withMore.findings, []);
    assert.equal(withMore.unexplainedCount, 2);
  });

  it('a mutation contradicted alone is tried in pairs, and an exact pair names both exactly', () => {
    const model = tableModel({
      mutations: ['a', 'b'],
      answer: (c, on) => (c === 'V 1' && on.has('a') && !on.has('b') ? 'bad' : both(c, on)),
    });
    const d = diagnose(
      model,
      mistakesOf({ alpha: ['a'], beta: ['b'] }),
      streamsOf([['V 1', 'Y 1']], answerOf(model, 'a', 'b')),
    );
    assert.deepEqual(named(d), [
      ['alpha', 'a', 'exact'],
      ['beta', 'b', 'exact'],
    ]);
  });

  it('an exact pair past the bound on pairs is still found among the mutations that each explain something', () => {
    // Thirty mistakes, each shown at a command of its own; the program makes the last two. The pairs of every
    // mutation seen (each is contradicted at its own command) with every other stop at 400, before that pair (a
    // health-checks port of HAProxy's leastconn, 35 mutations, was named 'likely' where the pair is exact).
    const ids = Array.from({ length: 30 }, (_, k) => `m${k}`);
    const model = tableModel({
      mutations: ids,
      answer: (c, on) => {
        const k = /^C(\d+)$/.exec(c)?.[1];
        return k !== undefined && on.has(`m${k}`) ? `c${k}!` : undefined;
      },
    });
    const groups = Object.fromEntries(ids.map((id) => [`mistake-${id}`, [id]]));
    const d = diagnose(
      model,
      mistakesOf(groups),
      streamsOf([ids.map((_, k) => `C${k}`)], answerOf(model, 'm28', 'm29')),
    );
    assert.deepEqual(named(d), [
      ['mistake-m28', 'm28', 'exact'],
      ['mistake-m29', 'm29', 'exact'],
    ]);
  });

  it('two mutations of one mistake are not paired: the mistake is likely, with the steps of both and each once', () => {
    // a1 explains X 1 and X 2, a2 explains X 2 and Y 1 (the earliest).
    const model = tableModel({
      mutations: ['a1', 'a2'],
      answer: (c, on) =>
        (on.has('a1') && c.startsWith('X')) || (on.has('a2') && (c === 'X 2' || c === 'Y 1')) ? `${c[0]}!` : undefined,
    });
    const d = diagnose(
      model,
      mistakesOf({ alpha: ['a1', 'a2'] }),
      streamsOf([['Y 1', 'X 1', 'X 2']], answerOf(model, 'a1', 'a2')),
    );
    assert.deepEqual(named(d), [['alpha', 'a1', 'likely']]);
    assert.deepEqual(commandsOf(d.findings[0]!.steps), ['Y 1', 'X 1', 'X 2']);
    assert.equal(d.findings[0]!.stepCount, 3);
    assert.deepEqual(d.unexplained, []);
  });
});

describe('diagnose: the greedy cover', () => {
  // X 1 answers X! under any of `explain`; U 1 the program answers with something no mutation gives.
  const tie = (ids: string[], free: string[], random: boolean) => {
    const model = tableModel({
      mutations: ids,
      free,
      answer: (c, on) =>
        c === 'X 1' && ids.some((id) => on.has(id))
          ? ids.some((id) => on.has(id) && !free.includes(id))
            ? 'X!'
            : { line: 'x 1', also: ['X!'] }
          : undefined,
    });
    const mistakes = mistakesOf(Object.fromEntries(ids.map((id) => [`mistake-${id}`, [id]])));
    return diagnose(
      model,
      mistakes,
      streamsOf([['X 1', 'U 1']], (c) => (c === 'U 1' ? 'zz' : 'X!')),
      { random },
    );
  };

  it('on a tie keeps the first of two fixed rules, and the first of two free choices', () => {
    for (const ids of [
      ['a', 'b'],
      ['b', 'a'],
    ]) {
      const d = tie(ids, [], false);
      assert.deepEqual(named(d), [[`mistake-${ids[0]}`, ids[0], 'likely']]);
      assert.deepEqual(commandsOf(d.unexplained.map((u) => u.step)), ['U 1']);
    }
    for (const ids of [
      ['n1', 'n2'],
      ['n2', 'n1'],
    ])
      assert.deepEqual(named(tie(ids, ids, false)), [[`mistake-${ids[0]}`, ids[0], 'likely']]);
  });

  it('on a tie between a fixed rule and a free choice takes the free choice only for a program known to choose at random', () => {
    const random = tie(['d', 'n'], ['n'], true);
    assert.deepEqual(named(random), [['mistake-n', 'n', 'likely']]);
    assert.equal(random.findings[0]!.nondeterministic, true);
    assert.deepEqual(named(tie(['d', 'n'], ['n'], false)), [['mistake-d', 'd', 'likely']]);
    assert.deepEqual(named(tie(['n', 'd'], ['n'], false)), [['mistake-d', 'd', 'likely']]);
  });

  it('takes the candidate that explains the most first, and no other that adds nothing', () => {
    // e explains X 1; d explains X 1, X 2 and X 3.
    const model = tableModel({
      mutations: ['e', 'd'],
      answer: (c, on) => ((c.startsWith('X') && on.has('d')) || (c === 'X 1' && on.has('e')) ? 'X!' : undefined),
    });
    const program = (c: string): string => (c === 'U 1' ? 'zz' : answerOf(model, 'd')(c));
    const d = diagnose(
      model,
      mistakesOf({ epsilon: ['e'], delta: ['d'] }),
      streamsOf([['X 1', 'X 2', 'X 3', 'U 1']], program),
    );
    assert.deepEqual(named(d), [['delta', 'd', 'likely']]);
    assert.deepEqual(d.findings[0]!.mutations, ['d']);
    assert.deepEqual(commandsOf(d.findings[0]!.steps), ['X 1', 'X 2', 'X 3']);
  });

  it('for a random program, a free choice that explains less does not go before a fixed rule that explains more', () => {
    const model = tableModel({
      mutations: ['d', 'n'],
      free: ['n'],
      answer: (c, on) =>
        c.startsWith('X') && on.has('d')
          ? 'X!'
          : c === 'X 1' && on.has('n')
            ? { line: 'x 1', also: ['X!'] }
            : undefined,
    });
    const d = diagnose(
      model,
      mistakesOf({ delta: ['d'], nu: ['n'] }),
      streamsOf([['X 1', 'X 2', 'U 1']], (c) => (c === 'U 1' ? 'zz' : 'X!')),
      { random: true },
    );
    assert.deepEqual(named(d), [['delta', 'd', 'likely']]);
  });

  it('for a random program, a fixed rule seen only where the program is not understood is chance, not named', () => {
    // s explains S 1 (firm); d explains X 1, at a kind of command where X 2 is explained by nothing. A
    // power-of-two-choices program picked the busier of 10 and 9 once and so fitted counts compared as text
    // (envoy_least_request.py, one check in three at seed 13, before stop 42).
    const model = tableModel({
      mutations: ['s', 'd'],
      answer: (c, on) => (c === 'S 1' && on.has('s') ? 'S!' : c === 'X 1' && on.has('d') ? 'X!' : undefined),
    });
    const streams = streamsOf([['S 1', 'X 1', 'X 2']], (c) => (c === 'X 2' ? 'zz' : c === 'S 1' ? 'S!' : 'X!'));
    const mistakes = mistakesOf({ sigma: ['s'], delta: ['d'] });
    assert.deepEqual(
      named(diagnose(model, mistakes, streams, { random: false })).map(([m]) => m),
      ['sigma', 'delta'],
    );
    assert.deepEqual(
      named(diagnose(model, mistakes, streams, { random: true })).map(([m]) => m),
      ['sigma'],
    );
  });

  it('orders findings by their first command, across processes too', () => {
    // d explains X 2 and X 3, e explains X 1 and X 4: d is chosen first (listed first, as many), e's first command comes earlier.
    const model = tableModel({
      mutations: ['d', 'e'],
      answer: (c, on) =>
        (on.has('d') && (c === 'X 2' || c === 'X 3')) || (on.has('e') && (c === 'X 1' || c === 'X 4'))
          ? 'X!'
          : undefined,
    });
    const mistakes = mistakesOf({ delta: ['d'], epsilon: ['e'] });
    const d = diagnose(
      model,
      mistakes,
      streamsOf([['X 1', 'X 2', 'X 3', 'X 4', 'U 1']], (c) => (c === 'U 1' ? 'zz' : 'X!')),
    );
    assert.deepEqual(
      d.findings.map((f) => f.mistake),
      ['epsilon', 'delta'],
    );
    // Two processes: e's command is first in the second, d's second in the first; the first process comes first.
    const two = diagnose(
      model,
      mistakes,
      streamsOf([['Z 1', 'X 2'], ['X 1']], (c) => (c === 'Z 1' ? 'z 1' : 'X!')),
    );
    assert.deepEqual(
      two.findings.map((f) => [f.mistake, f.steps.map((s) => s.stream)]),
      [
        ['delta', [0]],
        ['epsilon', [1]],
      ],
    );
  });
});
