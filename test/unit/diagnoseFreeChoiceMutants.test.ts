/**
 * The verdicts of diagnose() on free choices and on halves of pairs that test/unit/diagnose.test.ts leaves open
 * (its surviving mutants), on toy table models (test/unit/diagnoseToys.ts): a free choice named on top of the
 * fixed findings, a free choice with two fixed mutations (a triple) where no pair is left to build on, a free-choice
 * finding dropped where the same kind of command is left unexplained, and the steps credited to each half of an
 * exact pair. What is asserted is which mistake is named through which mutations, with which commands, and which
 * commands stay unexplained.
 */
import * as assert from 'node:assert/strict';
import { diagnose, MAX_SINGLE_CANDIDATES, type Diagnosis } from '../../src/core/diagnosis/diagnose';
import { answerOf, commandsOf, mistakesOf, plain, streamsOf, tableModel } from './diagnoseToys';

const unexplained = (d: Diagnosis): string[] => commandsOf(d.unexplained.map((u) => u.step));

describe('diagnose: a free choice on top of the fixed findings', () => {
  // d explains X 1; W 1 answers W! only with d and the free n; the free n2 changes nothing.
  const build = (listed: Record<string, string[]>) => {
    const model = tableModel({
      mutations: ['d', 'n', 'n2'],
      free: ['n', 'n2'],
      answer: (c, on) =>
        c === 'X 1' && on.has('d') ? 'X!' : c === 'W 1' && on.has('d') && on.has('n') ? 'W!' : undefined,
    });
    return diagnose(model, mistakesOf(listed), streamsOf([['X 1', 'W 1']], answerOf(model, 'd', 'n')));
  };

  it('names the free choice for the commands it explains together with the fixed findings', () => {
    const d = build({ alpha: ['d'], beta: ['n'], gamma: ['n2'] });
    assert.deepEqual(
      d.findings.map((f) => [
        f.mistake,
        f.mutation,
        f.mutations,
        f.confidence,
        f.nondeterministic,
        commandsOf(f.steps),
        f.stepCount,
      ]),
      [
        ['alpha', 'd', ['d'], 'likely', false, ['X 1'], 1],
        ['beta', 'n', ['d', 'n'], 'likely', true, ['W 1'], 1],
      ],
    );
    assert.deepEqual(d.unexplained, []);
  });

  it('a free choice no mistake lists is not named', () => {
    const d = build({ alpha: ['d'] });
    assert.deepEqual(
      d.findings.map((f) => f.mistake),
      ['alpha'],
    );
    assert.deepEqual(unexplained(d), ['W 1']);
  });

  it('without a free choice, the fixed findings stay and the rest is unexplained', () => {
    const d = build({ alpha: ['d'], gamma: ['n2'] });
    assert.deepEqual(
      d.findings.map((f) => [f.mistake, commandsOf(f.steps)]),
      [['alpha', ['X 1']]],
    );
    assert.deepEqual(unexplained(d), ['W 1']);
  });

  it('not where the free choice on top is contradicted', () => {
    const model = tableModel({
      mutations: ['d', 'n'],
      free: ['n'],
      answer: (c, on) =>
        c === 'X 1' && on.has('d')
          ? 'X!'
          : c === 'W 1' && on.has('d') && on.has('n')
            ? 'W!'
            : c === 'V 1' && on.has('d') && on.has('n')
              ? 'bad'
              : undefined,
    });
    const d = diagnose(
      model,
      mistakesOf({ alpha: ['d'], beta: ['n'] }),
      streamsOf([['V 1', 'X 1', 'W 1']], (c) => (c === 'V 1' ? plain(c) : answerOf(model, 'd', 'n')(c))),
    );
    assert.deepEqual(
      d.findings.map((f) => f.mistake),
      ['alpha'],
    );
    assert.deepEqual(unexplained(d), ['W 1']);
  });

  it("replaces the finding of the free choice's own mistake (a fixed tie rule) where there is one", () => {
    // t (of beta, like n) explains Y 1, the first command; d explains X 1; W 1 needs d and n.
    const model = tableModel({
      mutations: ['d', 't', 'n'],
      free: ['n'],
      answer: (c, on) =>
        c === 'Y 1' && on.has('t')
          ? 'Y!'
          : c === 'X 1' && on.has('d')
            ? 'X!'
            : c === 'W 1' && on.has('d') && on.has('n')
              ? 'W!'
              : undefined,
    });
    const d = diagnose(
      model,
      mistakesOf({ alpha: ['d'], beta: ['t', 'n'] }),
      streamsOf([['Y 1', 'X 1', 'W 1']], answerOf(model, 'd', 't', 'n')),
    );
    assert.deepEqual(
      d.findings.map((f) => [f.mistake, f.mutation, commandsOf(f.steps)]),
      [
        ['beta', 'n', ['W 1']],
        ['alpha', 'd', ['X 1']],
      ],
    );
    assert.deepEqual(d.unexplained, []);
  });
});

describe('diagnose: a free choice with two fixed mutations', () => {
  // d1 alone is contradicted at V 1 and explains X 1 only with n; d2 explains Y 1 and Z 1, e only Z 1; W 1 needs d1, d2 and n.
  const build = () => {
    const model = tableModel({
      mutations: ['d1', 'd2', 'e', 'n'],
      free: ['n'],
      answer: (c, on) => {
        if (c === 'V 1') return on.has('d1') && !on.has('n') ? 'bad' : undefined;
        if (c === 'X 1') return on.has('d1') && on.has('n') ? 'X!' : undefined;
        if (c === 'Y 1') return on.has('d2') ? 'Y!' : undefined;
        if (c === 'Z 1') return on.has('d2') || on.has('e') ? 'Z!' : undefined;
        if (c === 'W 1') return on.has('d1') && on.has('d2') && on.has('n') ? 'W!' : undefined;
        return undefined;
      },
    });
    return { model, mistakes: mistakesOf({ one: ['d1'], two: ['d2'], three: ['e'], free: ['n'] }) };
  };

  it('names all three where together they explain every command and are contradicted nowhere, the most supported first', () => {
    const { model, mistakes } = build();
    const d = diagnose(
      model,
      mistakes,
      streamsOf([['V 1', 'X 1', 'Y 1', 'Z 1', 'W 1']], answerOf(model, 'd1', 'd2', 'n')),
    );
    assert.deepEqual(d.findings.map((f) => f.mistake).sort(), ['free', 'one', 'two']);
    for (const f of d.findings) assert.deepEqual(f.mutations, ['d2', 'd1', 'n']);
    const byMistake = new Map(d.findings.map((f) => [f.mistake, f]));
    // A mutation of the three is credited with what the other two do not explain alone.
    assert.deepEqual(commandsOf(byMistake.get('one')!.steps), ['X 1', 'W 1']);
    assert.equal(byMistake.get('one')!.stepCount, 2);
    assert.deepEqual(commandsOf(byMistake.get('free')!.steps), ['X 1', 'W 1']);
    assert.equal(byMistake.get('free')!.nondeterministic, true);
    assert.deepEqual(d.unexplained, []);
  });

  it('leaves the fixed findings as they are where nothing is left uncovered', () => {
    // d1 explains X 1, d2 Y 1, the free n Z 1 (among its answers): covered without a triple.
    const model = tableModel({
      mutations: ['d1', 'd2', 'n'],
      free: ['n'],
      answer: (c, on) =>
        c === 'X 1' && on.has('d1')
          ? 'X!'
          : c === 'Y 1' && on.has('d2')
            ? 'Y!'
            : c === 'Z 1' && on.has('n')
              ? { line: 'z 1', also: ['Z!'] }
              : undefined,
    });
    const d = diagnose(
      model,
      mistakesOf({ one: ['d1'], two: ['d2'], free: ['n'] }),
      streamsOf([['X 1', 'Y 1', 'Z 1']], (c) => (c === 'Z 1' ? 'Z!' : answerOf(model, 'd1', 'd2')(c))),
    );
    assert.deepEqual(
      d.findings.map((f) => [f.mistake, f.mutations]),
      [
        ['one', ['d1', 'd2']],
        ['two', ['d1', 'd2']],
        ['free', ['n']],
      ],
    );
    assert.deepEqual(d.unexplained, []);
  });
});

describe('diagnose: a free choice where the same kind of command is left unexplained', () => {
  // Two mutations together are contradicted at V 1.
  const pairsOut = (c: string, on: ReadonlySet<string>): string | undefined =>
    c === 'V 1' && on.size >= 2 ? 'bad' : undefined;

  it('is dropped, and what only it explained is unexplained again', () => {
    // d explains X 1..3; the free n explains P 1 and X 1 (among its answers); P 2 no mutation explains.
    const model = tableModel({
      mutations: ['d', 'n'],
      free: ['n'],
      answer: (c, on) =>
        pairsOut(c, on) ??
        (c.startsWith('X') && on.has('d')
          ? 'X!'
          : on.has('n') && (c === 'X 1' || c === 'P 1')
            ? { line: plain(c), also: [`${c[0]}!`] }
            : undefined),
    });
    const program = (c: string): string => (c === 'V 1' ? plain(c) : c === 'P 2' ? 'zz' : `${c[0]}!`);
    const d = diagnose(
      model,
      mistakesOf({ delta: ['d'], nu: ['n'] }),
      streamsOf([['V 1', 'X 1', 'P 1', 'X 2', 'X 3', 'P 2']], program),
    );
    assert.deepEqual(
      d.findings.map((f) => [f.mistake, commandsOf(f.steps)]),
      [['delta', ['X 1', 'X 2', 'X 3']]],
    );
    assert.deepEqual(unexplained(d), ['P 1', 'P 2']);
    assert.equal(d.unexplainedCount, 2);
  });

  it('so is a fixed rule whose every command is a free choice too, but not one with a command of its own', () => {
    // The tie rule t and the free n explain P 1; e explains P 3 (and, in the second case, P 1 too); P 2 no mutation explains.
    const run = (eAlsoP1: boolean): Diagnosis => {
      const model = tableModel({
        mutations: ['t', 'n', 'e'],
        free: ['n'],
        answer: (c, on) => {
          const out = pairsOut(c, on);
          if (out) return out;
          if (c === 'P 3' && on.has('e')) return 'P!';
          if (c === 'P 1' && (on.has('t') || (eAlsoP1 && on.has('e')))) return 'P!';
          if (c === 'P 1' && on.has('n')) return { line: plain(c), also: ['P!'] };
          return undefined;
        },
      });
      const program = (c: string): string => (c === 'V 1' ? plain(c) : c === 'P 2' ? 'zz' : 'P!');
      return diagnose(
        model,
        mistakesOf({ tie: ['t'], nu: ['n'], epsilon: ['e'] }),
        streamsOf([['V 1', 'P 1', 'P 2', 'P 3']], program),
      );
    };
    const apart = run(false);
    assert.deepEqual(
      apart.findings.map((f) => [f.mistake, commandsOf(f.steps)]),
      [['epsilon', ['P 3']]],
    );
    assert.deepEqual(unexplained(apart), ['P 1', 'P 2']);
    // e explains P 1 (a free choice) and P 3 (not one): kept.
    const mixed = run(true);
    assert.deepEqual(
      mixed.findings.map((f) => [f.mistake, commandsOf(f.steps)]),
      [['epsilon', ['P 1', 'P 3']]],
    );
    assert.deepEqual(unexplained(mixed), ['P 2']);
  });
});

describe('diagnose: an exact pair', () => {
  it("names the half that explains nothing the other does not as exact too, with the pair's commands", () => {
    // a alone is contradicted at V 1 (b puts it right) and explains X 1 and Y 1; b explains Y 1.
    const model = tableModel({
      mutations: ['a', 'b'],
      answer: (c, on) =>
        c === 'V 1' && on.has('a') && !on.has('b')
          ? 'bad'
          : c === 'X 1' && on.has('a')
            ? 'X!'
            : c === 'Y 1' && (on.has('a') || on.has('b'))
              ? 'Y!'
              : undefined,
    });
    const d = diagnose(
      model,
      mistakesOf({ alpha: ['a'], beta: ['b'] }),
      streamsOf([['V 1', 'X 1', 'Y 1']], answerOf(model, 'a', 'b')),
    );
    assert.deepEqual(
      d.findings.map((f) => [f.mistake, f.mutation, f.mutations, f.confidence, commandsOf(f.steps), f.stepCount]),
      [
        ['alpha', 'a', ['a', 'b'], 'exact', ['X 1'], 1],
        ['beta', 'b', ['a', 'b'], 'exact', ['X 1', 'Y 1'], 2],
      ],
    );
  });
});

describe('diagnose: free choices past the limit of mutations walked', () => {
  // As above: d explains X 1; W 1 answers W! only with d and the free n. Fillers change nothing; they push n
  // to a place in the lesson's list of mutations before or past MAX_SINGLE_CANDIDATES.
  const run = (fillers: number): Diagnosis => {
    const filler = Array.from({ length: fillers }, (_, i) => `f${i}`);
    const model = tableModel({
      mutations: ['d', ...filler, 'n'],
      free: ['n'],
      answer: (c, on) =>
        c === 'X 1' && on.has('d') ? 'X!' : c === 'W 1' && on.has('d') && on.has('n') ? 'W!' : undefined,
    });
    return diagnose(
      model,
      mistakesOf({ alpha: ['d'], filler, beta: ['n'] }),
      streamsOf([['X 1', 'W 1']], answerOf(model, 'd', 'n')),
    );
  };

  it('names a free choice that is the last mutation walked', () => {
    const d = run(MAX_SINGLE_CANDIDATES - 2);
    assert.deepEqual(
      d.findings.map((f) => f.mistake),
      ['alpha', 'beta'],
    );
    assert.deepEqual(d.unexplained, []);
  });

  it('does not walk a free choice past the limit on top of the findings (it was never walked alone)', () => {
    const d = run(MAX_SINGLE_CANDIDATES - 1);
    assert.deepEqual(
      d.findings.map((f) => f.mistake),
      ['alpha'],
    );
    assert.deepEqual(unexplained(d), ['W 1']);
  });
});
