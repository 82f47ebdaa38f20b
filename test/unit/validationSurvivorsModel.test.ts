/**
 * What `validate` says about a pack's mistakes as measured on its model (adequacy.ts) and about the model itself
 * (modelChecks.ts), on toy models built for each case: mutants StrykerJS left alive there (a free-choice
 * mutation caught where it has a choice, the fewest transcripts separating a pair, masked pairs, cached
 * outcomes of mutation sets, the proposal search and its names, the lines problems point at, a reset that keeps
 * state). Each test pins what an instructor reads: the transcripts named, the counts, the line.
 */
import * as assert from 'node:assert/strict';
import { freshName, measureAdequacy, proposeTranscript } from '../../src/core/validation/adequacy';
import { checkModel } from '../../src/core/validation/modelChecks';
import { parseTranscripts } from '../../src/core/model/transcript';
import type { ReferenceModel } from '../../src/core/model/model';
import { lineOf, toyModel } from './validationToys';

const transcripts = (text: string) => parseTranscripts(text, 'transcripts/hidden.txt');

describe('validate survivors: mutation adequacy', () => {
  it('catches a free-choice mutation on exactly the transcripts where it has a choice', () => {
    // Under "any", PICK after TIE may answer b as well as a: a choice on t1's second step only, none on t2.
    const model = toyModel({
      mutations: [{ id: 'any', description: 'ties at random', nondeterministic: true }],
      answer: (command, on, before) =>
        command === 'PICK'
          ? on.has('any') && before.includes('TIE')
            ? { lines: ['a'], alternatives: [['b']] }
            : ['a']
          : ['OK'],
    });
    const hidden = transcripts('=== t1: a tie\n> TIE\nOK\n> PICK\na\n=== t2: no tie\n> PICK\na\n');
    const adequacy = measureAdequacy(model, [{ id: 'random-ties', mutants: ['any'] }], hidden);
    assert.deepEqual(adequacy.mistakes, [
      { mistake: 'random-ties', mutations: [{ mutation: 'any', caughtBy: ['t1'] }], caughtBy: ['t1'] },
    ]);
  });

  it('leaves a free-choice mistake out of the whole-outcome comparison of a pair, in either order', () => {
    const model = toyModel({
      mutations: [{ id: 'any', description: 'ties at random', nondeterministic: true }, 'off'],
      answer: (command, on) =>
        command === 'PICK'
          ? on.has('any')
            ? { lines: ['a'], alternatives: [['b']] }
            : ['a']
          : [on.has('off') ? '1' : '0'],
    });
    const hidden = transcripts('=== picks: x\n> PICK\na\n=== gets: y\n> GET\n0\n');
    const free = { id: 'random-ties', mutants: ['any'] };
    const wrong = { id: 'off-by-one', mutants: ['off'] };
    const forward = measureAdequacy(model, [free, wrong], hidden);
    assert.deepEqual(
      forward.mistakes.map((m) => [m.mistake, m.caughtBy]),
      [
        ['random-ties', ['picks']],
        ['off-by-one', ['gets']],
      ],
    );
    assert.deepEqual(
      forward.pairs,
      [{ mistakes: ['random-ties', 'off-by-one'], separatedBy: null }],
      'not compared, not "cannot be told apart"',
    );
    assert.deepEqual(forward.matrix, [
      [null, null],
      [null, null],
    ]);
    assert.deepEqual(measureAdequacy(model, [wrong, free], hidden).pairs, [
      { mistakes: ['off-by-one', 'random-ties'], separatedBy: null },
    ]);
  });

  it('catches a mistake on every transcript that catches one of its mutations', () => {
    // m1 changes GET, which the transcript asks; m2 changes only LIST, which it never asks.
    const model = toyModel({
      mutations: ['m1', 'm2'],
      answer: (command, on) => [
        (command === 'GET' && on.has('m1')) || (command === 'LIST' && on.has('m2')) ? '1' : '0',
      ],
    });
    const adequacy = measureAdequacy(
      model,
      [{ id: 'counts', mutants: ['m1', 'm2'] }],
      transcripts('=== t: x\n> GET\n0\n'),
    );
    assert.deepEqual(
      adequacy.mistakes[0]!.mutations.map((m) => [m.mutation, m.caughtBy]),
      [
        ['m1', ['t']],
        ['m2', []],
      ],
    );
    assert.deepEqual(adequacy.mistakes[0]!.caughtBy, ['t']);
  });

  describe('pairs of mistakes', () => {
    it('compares a never-caught mutation with a caught one, with null on the diagonal and no masked pair', () => {
      // "never" changes only LIST (no transcript asks it); "wrong" changes GET, which both transcripts ask.
      const model = toyModel({
        mutations: ['never', 'wrong'],
        answer: (command, on) => [
          command === 'LIST' && on.has('never') ? '1' : command === 'GET' && on.has('wrong') ? '1' : '0',
        ],
      });
      const hidden = transcripts('=== one: x\n> GET\n0\n=== two: y\n> NOP\n0\n> GET\n0\n');
      const adequacy = measureAdequacy(
        model,
        [
          { id: 'silent', mutants: ['never'] },
          { id: 'loud', mutants: ['wrong'] },
        ],
        hidden,
      );
      assert.deepEqual(
        adequacy.mistakes.map((m) => m.caughtBy.length),
        [0, 2],
      );
      assert.deepEqual(adequacy.pairs, [{ mistakes: ['silent', 'loud'], separatedBy: 2 }]);
      assert.deepEqual(adequacy.matrix, [
        [null, 2],
        [2, null],
      ]);
    });

    it('finds no masked pair in two mistakes that share their one mutation', () => {
      const model = toyModel({ mutations: ['x'], answer: (_command, on) => [on.has('x') ? '1' : '0'] });
      const adequacy = measureAdequacy(
        model,
        [
          { id: 'first', mutants: ['x'] },
          { id: 'second', mutants: ['x'] },
        ],
        transcripts('=== t: x\n> GET\n0\n'),
      );
      assert.deepEqual(adequacy.pairs, [{ mistakes: ['first', 'second'], separatedBy: 0, unseparated: ['x', 'x'] }]);
    });

    it('counts the fewest transcripts that separate any mutation of one mistake from any of the other', () => {
      // a1 and b1 differ on GET only; a2 and b1 on GET and LIST.
      const model = toyModel({
        mutations: ['a1', 'a2', 'b1'],
        answer: (command, on) => [
          command === 'GET'
            ? on.has('a1') || on.has('a2')
              ? 'a'
              : on.has('b1')
                ? 'b'
                : '0'
            : on.has('a2')
              ? 'a'
              : '0',
        ],
      });
      const hidden = transcripts('=== gets: x\n> GET\n0\n=== lists: y\n> LIST\n0\n');
      const adequacy = measureAdequacy(
        model,
        [
          { id: 'a', mutants: ['a1', 'a2'] },
          { id: 'b', mutants: ['b1'] },
        ],
        hidden,
      );
      assert.deepEqual(
        adequacy.pairs.map((p) => p.separatedBy),
        [1],
      );
    });

    it('runs two mutations together, not as a third mutation whose id joins theirs', () => {
      // "ab" alone answers like "a"; "a" and "b" together answer "both", like neither of them alone.
      const model = toyModel({
        mutations: ['a', 'b', 'ab'],
        answer: (_command, on) => [
          on.has('ab') ? 'a' : on.has('a') && on.has('b') ? 'both' : on.has('a') ? 'a' : on.has('b') ? 'b' : '0',
        ],
      });
      const adequacy = measureAdequacy(
        model,
        [
          { id: 'first', mutants: ['a'] },
          { id: 'second', mutants: ['b'] },
          { id: 'joined', mutants: ['ab'] },
        ],
        transcripts('=== t: x\n> GET\n0\n'),
      );
      const pair = adequacy.pairs.find((p) => p.mistakes.join() === 'first,second');
      assert.deepEqual(pair, { mistakes: ['first', 'second'], separatedBy: 1 });
    });
  });

  it('compares a mutation with the reference, not with a mutation the model happens to declare', () => {
    // The model also declares a mutation (its id is one a mutation tool writes) that answers like "x".
    const model = toyModel({
      mutations: ['x', 'Stryker was here'],
      answer: (_command, on) => [on.size > 0 ? '1' : '0'],
    });
    const adequacy = measureAdequacy(model, [{ id: 'm', mutants: ['x'] }], transcripts('=== t: x\n> GET\n0\n'));
    assert.deepEqual(adequacy.mistakes[0]!.caughtBy, ['t']);
  });
});

describe('validate survivors: proposals and their names', () => {
  it('tries as many generated transcripts as it is told to, no more', async () => {
    const model = toyModel({ answer: () => ['OK'] });
    let calls = 0;
    const lateDiffer = (): boolean => ++calls >= 2;
    assert.equal(await proposeTranscript(model, lateDiffer, 'late', 'found late', { seed: 1, tries: 1 }), undefined);
    assert.equal(calls, 1);
    calls = 0;
    assert.match(
      (await proposeTranscript(model, lateDiffer, 'late', 'found late', { seed: 1, tries: 2 }))!,
      /^=== late: found late\n> NOP\nOK\n/,
    );
  });

  it('makes a transcript name of lower-case letters, digits, ".", "_" and "-", at most 60 long', () => {
    assert.equal(freshName('!!!', []), 'proposed');
    assert.equal(freshName('a b', []), 'a-b');
    assert.equal(freshName('a  b', []), 'a-b');
    assert.equal(freshName('--a', []), 'a');
    assert.equal(freshName('-a', []), 'a');
    const long = 'x'.repeat(70);
    assert.equal(freshName(long, []), long.slice(0, 60));
  });
});

describe('validate survivors: the model itself', () => {
  /** generate() that names its 120 calls (two rounds of 60) by their place in the round: `lists(i)`. */
  const byPlace = (lists: (i: number) => string[]): ReferenceModel['generate'] => {
    let calls = 0;
    return () => lists(calls++ % 60);
  };

  it('points at line 1 when generate( is on the first line of the model source', () => {
    let calls = 0;
    const model = toyModel({ answer: () => ['OK'], generate: () => [calls++ < 60 ? 'NOP' : 'GET'] });
    const problems = checkModel({
      model,
      transcripts: [],
      seed: 1,
      file: 'model.ts',
      source: 'export function generate(random, length) {\n}\n',
      clock: () => 0,
    });
    const unseeded = problems.filter((p) => p.message.startsWith('generate() makes different transcripts'));
    assert.deepEqual(
      unseeded.map((p) => [p.severity, p.file, p.line]),
      [['error', 'model.ts', 1]],
    );
  });

  it('points a mutation that changes nothing at its line in single quotes', () => {
    const source = [
      '// a toy',
      'export const mutations = [',
      "  { id: 'idle', description: 'changes nothing' },",
      '];',
    ].join('\n');
    const model = toyModel({ mutations: ['idle'], answer: () => ['OK'] });
    const problems = checkModel({ model, transcripts: [], seed: 1, file: 'model.ts', source, clock: () => 0 });
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line, p.message.match(/^mutation "(\w+)" changes no answer/)?.[1]]),
      [['error', lineOf(source, "'idle'"), 'idle']],
    );
  });

  describe('a reset that keeps state', () => {
    /** GET answers whether a SET came before (RESET keeps SET when `keeps` says so); BOOM crashes after a SET and answers nothing otherwise. */
    const flagModel = (over: { keepsSet: boolean; generate?: ReferenceModel['generate'] }): ReferenceModel =>
      toyModel({
        answer: (command, _on, before) =>
          command === 'GET'
            ? [before.includes('SET') ? 'set' : 'unset']
            : command === 'BOOM'
              ? before.includes('SET')
                ? 'crash'
                : []
              : ['OK'],
        keeps: (command) => over.keepsSet && command === 'SET',
        ...(over.generate ? { generate: over.generate } : {}),
      });
    const dependencies = (model: ReferenceModel, hidden: string): string[] =>
      checkModel({ model, transcripts: hidden ? transcripts(hidden) : [], seed: 1, file: 'model.ts', clock: () => 0 })
        .filter((p) => p.message.includes('in one process'))
        .map((p) => p.message);

    it('numbers generated transcripts from 1', () => {
      const SETS = 1;
      const GETS = 3;
      const model = flagModel({
        keepsSet: true,
        generate: byPlace((i) => (i === SETS ? ['SET'] : i === GETS ? ['GET'] : ['NOP', 'NOP'])),
      });
      const found = dependencies(model, '');
      assert.equal(found.length, 1, found.join('\n'));
      assert.match(
        found[0]!,
        new RegExp(
          `^generated transcript ${GETS + 1} is answered otherwise when it runs after generated transcript ${SETS + 1} in one process`,
        ),
      );
    });

    it('tries first only lists that leave state behind: a crashing one leaves none', () => {
      const model = flagModel({ keepsSet: false });
      assert.deepEqual(
        checkModel({
          model,
          transcripts: transcripts('=== crashes: x\n> SET\nOK\n> BOOM\n=== reads: y\n> GET\nunset\n'),
          seed: 1,
          file: 'model.ts',
          clock: () => 0,
        }),
        [],
      );
    });

    it('does not run a transcript after itself', () => {
      const model = flagModel({ keepsSet: true });
      assert.deepEqual(dependencies(model, '=== reads-then-sets: x\n> GET\nunset\n> SET\nOK\n'), []);
    });

    it('tells a crash after another transcript from a finish alone, with the same lines', () => {
      const model = flagModel({ keepsSet: true });
      const found = dependencies(model, '=== sets: x\n> SET\nOK\n=== boom: y\n> BOOM\n');
      assert.equal(found.length, 1, found.join('\n'));
      assert.match(
        found[0]!,
        /^hidden transcript "boom" is answered otherwise when it runs after hidden transcript "sets" in one process/,
      );
    });
  });
});
