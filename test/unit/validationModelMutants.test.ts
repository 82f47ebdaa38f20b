/**
 * validate's checks of a pack's reference model (modelChecks.ts), on a small counter model and on the built-in
 * models: a good model gives nothing; each kind of broken model gives the error or warning an author reads.
 */
import * as assert from 'node:assert/strict';
import { checkModel, type ModelCheckInput } from '../../src/core/validation/modelChecks';
import { model as leastConnections } from '../../lessons/least-connections/model/model';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import type { MutationInfo, Random, ReferenceModel } from '../../src/core/model/model';
import { seededRandom } from '../../src/core/model/random';
import { simulate } from '../../src/core/model/simulate';
import { parseTranscripts, type Transcript } from '../../src/core/model/transcript';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SOURCE = [
  '// a counter',
  'export const model = {',
  '  mutations: [{ id: \'off-by-one\' }, { id: "quoted" }],',
  "  resetCommand: 'RESET',",
  '  step(state, command) {',
  '  },',
  '  generate(random, length) {',
  '  },',
  '};',
].join('\n');

/** INC adds one (OK), GET answers the count, RESET puts it back to 0; off-by-one makes GET answer one more. */
function counter(over: Partial<ReferenceModel<{ n: number }>> = {}): ReferenceModel<{ n: number }> {
  return {
    id: 'counter',
    description: 'a counter',
    mutations: [{ id: 'off-by-one', description: 'GET answers one more' }],
    resetCommand: 'RESET',
    resetAnswer: ['OK'],
    initial: () => ({ n: 0 }),
    step: (state, command, on) => {
      if (command === 'INC') return { state: { n: state.n + 1 }, answer: { kind: 'lines', lines: ['OK'] } };
      if (command === 'RESET') return { state: { n: 0 }, answer: { kind: 'lines', lines: ['OK'] } };
      return { state, answer: { kind: 'lines', lines: [String(state.n + (on.has('off-by-one') ? 1 : 0))] } };
    },
    snapshot: (state) => ({ n: state.n }),
    answerShape: () => ({ kind: 'one' }),
    isAnswerLine: (line) => /^\w+$/.test(line),
    generate: (random: Random, length: number) =>
      Array.from({ length }, () => random.pick(['INC', 'GET', 'GET', 'RESET'])),
    ...over,
  };
}

function transcript(name: string, commands: string[]): Transcript {
  return {
    name,
    label: name,
    file: 'transcripts/t.txt',
    steps: commands.map((command, i) => ({ command, expected: [], line: i + 2 })),
  } as unknown as Transcript;
}

/** The 60 transcripts checkModel generates from `seed`. */
function generated(model: ReferenceModel, seed: number): string[][] {
  const random = seededRandom(seed);
  return Array.from({ length: 60 }, () => model.generate(random, 2 + random.int(23)));
}

const check = (model: ReferenceModel, over: Partial<ModelCheckInput> = {}) =>
  checkModel({
    model,
    transcripts: [transcript('basics', ['INC', 'GET'])],
    seed: 5,
    file: 'model/model.ts',
    source: SOURCE,
    clock: () => 0,
    ...over,
  });

describe('validate: the reference model itself', () => {
  let model: ReferenceModel<{ n: number }>;
  beforeEach(() => {
    model = counter();
  });

  it('finds nothing wrong with a good model, or with the built-in ones', () => {
    assert.deepEqual(check(model), []);
    // With the lesson's own hidden transcripts, as `validate` runs it: counts-as-text shows only once a count
    // reaches 10, which the generated transcripts (a few backends, 16 commands) never do; numbers.txt does.
    const dir = path.join(__dirname, '..', '..', 'lessons', 'least-connections', 'transcripts');
    const hidden = fs
      .readdirSync(dir)
      .flatMap((file) => parseTranscripts(fs.readFileSync(path.join(dir, file), 'utf8'), `transcripts/${file}`));
    assert.deepEqual(
      checkModel({ model: leastConnections, transcripts: hidden, seed: 1, file: 'model/model.ts', clock: () => 0 }),
      [],
    );
  });

  it('says when generate() is not a function of the seed, at its line', () => {
    let calls = 0;
    const problems = check(
      counter({ generate: (_random, length) => Array.from({ length }, () => (calls++ < 60 ? 'INC' : 'GET')) }),
    );
    const p = problems.find((x) => x.message.startsWith('generate() makes different'));
    assert.deepEqual(p, {
      severity: 'error',
      area: 'model',
      file: 'model/model.ts',
      line: 7,
      message:
        'generate() makes different transcripts from the same seed, so a reported seed would not reproduce a check',
      advice:
        'Draw every random choice from the `random` it is given (random.int, random.pick): no Math.random, no clock, no state kept between calls.',
    });
  });

  it('leaves out the line when there is no model source', () => {
    let calls = 0;
    const problems = check(
      counter({ generate: (_random, length) => Array.from({ length }, () => (calls++ < 60 ? 'INC' : 'GET')) }),
      { source: undefined },
    );
    assert.ok(problems.length > 0);
    assert.ok(
      problems.every((p) => p.file === 'model/model.ts' && !('line' in p)),
      JSON.stringify(problems),
    );
  });

  for (const [what, bad] of [
    ['a control character', 'GE\u0001T'],
    ['DEL', 'GE\u007fT'],
    ['an empty command', '  '],
    ['a unit separator', '\u001f'],
  ] as const) {
    it(`says which generated transcript holds ${what}`, () => {
      let calls = 0;
      const problems = check(
        counter({
          generate: (_random, length) => (calls++ % 60 === 2 ? ['INC', bad] : Array.from({ length }, () => 'GET')),
        }),
      );
      const found = problems.filter((p) => p.message.startsWith('generate() made a command'));
      assert.deepEqual(found, [
        {
          severity: 'error',
          area: 'model',
          file: 'model/model.ts',
          line: 7,
          message: `generate() made a command that is empty or holds a control character: ${JSON.stringify(bad)} (generated transcript 3)`,
          advice: 'Generate one command per string, printable, without newlines.',
        },
      ]);
    });
  }

  it('accepts printable commands with spaces inside', () => {
    assert.deepEqual(
      check(counter({ generate: (_random, length) => Array.from({ length }, () => 'GET ~ok') })).filter((p) =>
        p.message.startsWith('generate() made'),
      ),
      [],
    );
  });

  it('says when step() answers differently on two runs of the same commands', () => {
    const shared = { n: 0 };
    const drifting = counter({
      initial: () => shared,
      step: (state, command) => {
        if (command === 'INC') state.n++;
        return { state, answer: { kind: 'lines', lines: [command === 'INC' ? 'OK' : String(state.n)] } };
      },
    });
    const problems = check(drifting).filter((p) => p.message.startsWith('step() answers differently'));
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.severity, 'error');
    assert.equal(problems[0]!.line, 5);
    assert.equal(
      problems[0]!.message,
      'step() answers differently on two runs of the same commands, e.g. ["INC","GET"]',
    );
    assert.match(
      problems[0]!.advice!,
      /^A model must be a function of its state and the command: return new state objects/,
    );
  });

  it('names the mutation under which step() drifts, and shows at most six commands', () => {
    let calls = 0;
    const drifting = counter({
      step: (state, command, on) => {
        if (command === 'INC') return { state: { n: state.n + 1 }, answer: { kind: 'lines', lines: ['OK'] } };
        return { state, answer: { kind: 'lines', lines: [String(state.n + (on.has('off-by-one') ? ++calls : 0))] } };
      },
    });
    const long = ['INC', 'INC', 'INC', 'INC', 'INC', 'INC', 'INC', 'GET'];
    const problems = check(drifting, { transcripts: [transcript('long', long)] }).filter((p) =>
      p.message.startsWith('step() answers differently'),
    );
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        `step() answers differently on two runs of the same commands with mutation "off-by-one", e.g. ${JSON.stringify(long.slice(0, 6))}`,
      ],
    );
  });

  it('warns, in ms per command, when a step is slower than a millisecond', () => {
    const lists = [['INC', 'GET'], ...generated(model, 5)];
    const steps = 2 * lists.reduce((n, l) => n + 2 * l.length, 0); // the reference and one deterministic mutation
    const clockOf = (elapsed: number): (() => number) => {
      let t = 1000 - elapsed; // a clock that does not start at 0
      return () => (t += elapsed);
    };
    assert.deepEqual(check(model, { clock: clockOf(steps) }), [], 'exactly 1 ms per command is fine');
    const problems = check(model, { clock: clockOf(steps * 2.5) });
    assert.deepEqual(problems, [
      {
        severity: 'warning',
        area: 'model',
        file: 'model/model.ts',
        line: 5,
        message:
          'step() takes 2.50 ms per command; a diagnosis walks tens of thousands of commands, so checks of failing programs will be slow',
        advice: 'Keep the state small and copy only what a command changes.',
      },
    ]);
  });

  it('counts no steps of a nondeterministic mutation in the time per command', () => {
    const withRandom = counter({
      mutations: [...model.mutations, { id: 'any', description: '', nondeterministic: true }],
      step: (state, command, on) => ({
        ...counter().step(state, command, on),
        ...(on.has('any') && command === 'GET' ? { alternatives: [['1']] } : {}),
      }),
    });
    const lists = [['INC', 'GET'], ...generated(withRandom, 5)];
    const steps = 2 * lists.reduce((n, l) => n + 2 * l.length, 0);
    let t = -steps * 1.5;
    const problems = check(withRandom, { clock: () => (t += steps * 1.5) });
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        'step() takes 1.50 ms per command; a diagnosis walks tens of thousands of commands, so checks of failing programs will be slow',
      ],
    );
  });

  it('says when the reference crashes on a generated transcript, with the commands up to the crash', () => {
    const crashing = counter({
      step: (state, command, on) =>
        command === 'GET' && state.n >= 2
          ? { state, answer: { kind: 'crash', error: 'boom' } }
          : counter().step(state, command, on),
    });
    const lists = generated(crashing, 5);
    const first = lists.find((l) => simulate(crashing, l).outcome.ending === 'crashed')!;
    const upTo = first.slice(0, simulate(crashing, first).steps.length);
    const problems = check(crashing, { transcripts: [] }).filter((p) => p.message.startsWith('the reference'));
    assert.deepEqual(problems, [
      {
        severity: 'error',
        area: 'model',
        file: 'model/model.ts',
        line: 7,
        message: `the reference crashes on a generated transcript: ${JSON.stringify(upTo)}`,
        advice:
          'generate() must make commands of the protocol, and the reference must answer each in the shape answerShape() gives, with lines isAnswerLine() accepts.',
      },
    ]);
  });

  it('says when an answer does not fit its shape: two lines where one is due', () => {
    const twice = counter({
      step: (state, command, on) =>
        command === 'GET'
          ? { state, answer: { kind: 'lines', lines: ['0', '0'] } }
          : counter().step(state, command, on),
    });
    const problems = check(twice).filter((p) => p.message.startsWith('the reference'));
    assert.deepEqual(
      problems.map((p) => p.message),
      ['the reference\'s answer to generated command "GET" does not fit its answer shape or isAnswerLine: ["0","0"]'],
    );
  });

  it('accepts many lines where the shape is many', () => {
    const many = counter({
      answerShape: () => ({ kind: 'many', line: /^\d+$/ }),
      step: (state, command, on) =>
        command === 'GET'
          ? { state, answer: { kind: 'lines', lines: ['0', '0'] } }
          : counter().step(state, command, on),
    });
    assert.deepEqual(
      check(many).filter((p) => p.message.startsWith('the reference')),
      [],
    );
  });

  it('says when a line of the answer is not an answer line', () => {
    const odd = counter({ isAnswerLine: (line) => line !== 'OK' });
    const problems = check(odd).filter((p) => p.message.startsWith('the reference'));
    const first = generated(odd, 5)[0]!.find((c) => c !== 'GET')!;
    assert.deepEqual(
      problems.map((p) => p.message),
      [`the reference's answer to generated command "${first}" does not fit its answer shape or isAnswerLine: ["OK"]`],
    );
  });

  it('says which declared mutation changes no answer, at its line in either quotes', () => {
    const mutations: MutationInfo[] = [
      ...model.mutations,
      { id: 'quoted', description: '' },
      { id: 'elsewhere', description: '' },
    ];
    const problems = check(counter({ mutations }));
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line, p.message]),
      [
        ['error', 3, 'mutation "quoted" changes no answer on the hidden transcripts or 60 generated ones'],
        ['error', undefined, 'mutation "elsewhere" changes no answer on the hidden transcripts or 60 generated ones'],
      ],
    );
    assert.equal(
      problems[0]!.advice,
      'Make the mutation change what the model answers, or remove it; if only rare commands show it, generate them more often.',
    );
    assert.equal(check(counter({ mutations: [{ id: 'off-by-one', description: '' }] })).length, 0);
  });

  it('says when a nondeterministic mutation offers no alternatives, and accepts one that does', () => {
    const silent = check(
      counter({ mutations: [...model.mutations, { id: 'quoted', description: '', nondeterministic: true }] }),
    );
    assert.deepEqual(
      silent.map((p) => p.message),
      [
        'mutation "quoted" changes no answer on the hidden transcripts or 60 generated ones (a nondeterministic mutation must offer alternatives somewhere)',
      ],
    );
    const offering = counter({
      mutations: [...model.mutations, { id: 'quoted', description: '', nondeterministic: true }],
      step: (state, command, on) => ({
        ...counter().step(state, command, on),
        ...(on.has('quoted') && command === 'GET' ? { alternatives: [['1']] } : {}),
      }),
    });
    assert.deepEqual(check(offering), []);
  });

  it('says which transcript a right program would fail after which, pointing at resetCommand', () => {
    const leaky = counter({
      step: (state, command, on) =>
        command === 'RESET' ? { state, answer: { kind: 'lines', lines: ['OK'] } } : counter().step(state, command, on),
    });
    const problems = check(leaky, {
      transcripts: [transcript('adds', ['INC']), transcript('reads', ['GET'])],
      seed: 1,
    }).filter((p) => p.message.includes('in one process'));
    assert.deepEqual(problems, [
      {
        severity: 'error',
        area: 'model',
        file: 'model/model.ts',
        line: 4,
        message:
          'hidden transcript "reads" is answered otherwise when it runs after hidden transcript "adds" in one process: the reset command "RESET" keeps something hidden transcript "adds" set, and the check runs many transcripts in one process, so a right program would fail it',
        advice:
          'Make the reset command put everything back, or make every hidden transcript and every generated one set that state itself before it relies on it: a transcript that starts by setting it holds in any order.',
      },
    ]);
  });

  it('tells a crash after another transcript from a crash alone', () => {
    const leaky = counter({
      step: (state, command, on) =>
        command === 'RESET'
          ? { state, answer: { kind: 'lines', lines: ['OK'] } }
          : command === 'GET' && state.n > 0
            ? { state, answer: { kind: 'crash', error: 'x' } }
            : counter().step(state, command, on),
      generate: () => ['GET'],
    });
    const problems = check(leaky, {
      transcripts: [transcript('adds', ['INC']), transcript('reads', ['GET', 'GET'])],
    }).filter((p) => p.message.includes('in one process'));
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]!.message,
      /^hidden transcript "reads" is answered otherwise when it runs after hidden transcript "adds"/,
    );
  });

  it("health-checks: compares the answers after the first transcript's answers and the reset's", () => {
    const t = (name: string, commands: string[]) => transcript(name, commands);
    const problems = checkModel({
      model: healthChecks,
      transcripts: [
        t('capped', ['CAP 0', 'POOL a b', 'PICK']),
        t('uncapped', ['CAP 0', 'POOL a b', 'PICK', 'PICK']),
        // A count past 9, as numbers.txt has: counts compared as text show nowhere else.
        t('double-digits', ['CAP 0', 'POOL a b', ...Array<string>(20).fill('PICK')]),
      ],
      seed: 1,
      file: 'model/model.ts',
      clock: () => 0,
    });
    assert.deepEqual(problems, []);
  });
});
