// The edges of src/core/model/grammar.ts that grammar.test.ts leaves open: every way a pack's declared grammar can
// be malformed (with the exact words an author reads), a grammar of list arguments only, and commands that fit no
// grammar at all; and of src/core/model/random.ts: the exact draws of a seed, and `pick` drawing like `int`.
import * as assert from 'node:assert/strict';
import { commandFits, grammarProblem, grammarShapeProblem } from '../../src/core/model/grammar';
import type { ArgumentKind, CommandGrammar } from '../../src/core/model/model';
import { seededRandom } from '../../src/core/model/random';

const NOT_AN_OBJECT = '`grammar` must be an object: command name → list of argument kinds';

describe('a declared grammar, as pack code may write it', () => {
  it('must be an object: not null, a string, a number, a list or missing', () => {
    for (const grammar of [null, undefined, 'POOL', 5, true, [], [['POOL', []]]]) {
      assert.equal(grammarShapeProblem(grammar), NOT_AN_OBJECT, JSON.stringify(grammar) ?? String(grammar));
    }
  });

  it('names each command with one word', () => {
    for (const verb of ['TWO WORDS', ' POOL', 'POOL ', '', 'A\tB']) {
      assert.equal(
        grammarShapeProblem({ PICK: [], [verb]: [] }),
        `\`grammar\`: "${verb}" is not one word`,
        JSON.stringify(verb),
      );
    }
    assert.equal(
      grammarShapeProblem({ 'pool-v2': [], Ünïcode: [] }),
      undefined,
      'any run of non-space characters is a word',
    );
  });

  it('gives each command a list of the known argument kinds', () => {
    const message = (verb: string): string =>
      `\`grammar.${verb}\` must be a list of argument kinds ("name", "number", "names")`;
    assert.equal(grammarShapeProblem({ POOL: ['list'] }), message('POOL'));
    assert.equal(grammarShapeProblem({ PICK: [], POOL: ['name', 'word'] }), message('POOL'));
    assert.equal(grammarShapeProblem({ POOL: 'names' }), message('POOL'));
    assert.equal(grammarShapeProblem({ POOL: { 0: 'names' } }), message('POOL'));
  });

  it('puts a list of names only last', () => {
    const message = (verb: string): string =>
      `\`grammar.${verb}\`: "names" (a list of names) can only be the last argument`;
    assert.equal(grammarShapeProblem({ CAP: ['names', 'name'] }), message('CAP'));
    assert.equal(grammarShapeProblem({ CAP: ['name', 'names', 'number'] }), message('CAP'));
    assert.equal(grammarShapeProblem({ CAP: ['names', 'names'] }), message('CAP'));
  });

  it('accepts every kind, a list of names alone or last, and commands with no arguments', () => {
    const grammar: CommandGrammar = {
      SETUP: ['names'],
      CAP: ['name', 'names'],
      LIMIT: ['number', 'number'],
      FINISHED: ['name'],
      CHOOSE: [],
    };
    assert.equal(grammarShapeProblem(grammar), undefined);
    assert.equal(grammarShapeProblem({}), undefined, 'a protocol with no commands declared is still an object');
  });
});

describe('fitting commands to a grammar', () => {
  it('an empty or blank command is no command of the protocol', () => {
    const grammar: CommandGrammar = { PICK: [], DONE: ['name'] };
    assert.equal(grammarProblem(grammar, ''), '`` is not a command of the protocol (its commands: PICK, DONE)');
    assert.equal(grammarProblem(grammar, '   '), '`   ` is not a command of the protocol (its commands: PICK, DONE)');
  });

  it('a kind the engine does not know fits no word (a grammar used without its shape check fails closed)', () => {
    const grammar = { SET: ['flag'] as unknown as ArgumentKind[] };
    assert.equal(grammarProblem(grammar, 'SET on'), '`SET on` does not fit `SET <flag>`');
    assert.equal(grammarProblem({ SET: ['name'] }, 'SET on'), undefined);
  });

  it('a number then a list of names: digits where the number is, any words after it', () => {
    const grammar: CommandGrammar = { LIMIT: ['number', 'names'] };
    assert.equal(grammarProblem(grammar, 'LIMIT 5 a 7 b'), undefined);
    assert.equal(grammarProblem(grammar, 'LIMIT a 5'), '`LIMIT a 5` does not fit `LIMIT <number> <name>…`');
    assert.equal(commandFits({ grammar })('LIMIT 5'), true);
    assert.equal(commandFits({ grammar })('LIMIT'), false);
  });
});

describe('seeded draws', () => {
  it('draws the same mulberry32 sequence as when these values were recorded, so a seed in an old report still reproduces', () => {
    // int(2^32) is the generator's raw 32-bit output: 1144304738 / 2^32 = 0.26642920868471265, mulberry32's first draw for seed 0.
    const raw = (seed: number): number[] => {
      const random = seededRandom(seed);
      return Array.from({ length: 5 }, () => random.int(2 ** 32));
    };
    assert.deepEqual(raw(0), [1144304738, 1416247, 958946056, 627933444, 2007157716]);
    assert.deepEqual(raw(2026), [1955961175, 1324980858, 2839649622, 2656330836, 654038057]);
  });

  it('picks the item that int draws for the same seed, and reaches every item', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    const picks = seededRandom(977078989);
    const ints = seededRandom(977078989);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const item = picks.pick(items);
      assert.equal(item, items[ints.int(items.length)], `draw ${i}`);
      seen.add(item);
    }
    assert.deepEqual([...seen].sort(), items);
  });
});
