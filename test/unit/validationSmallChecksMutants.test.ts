/**
 * validate's text, grammar and scenario checks called directly: what an instructor reads for a broken pack,
 * and that a good pack gives nothing.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkControlCharacters } from '../../src/core/validation/textChecks';
import { checkGrammar } from '../../src/core/validation/grammarChecks';
import { evidenceMutants, sameRun, showsFinding } from '../../src/core/validation/scenarioChecks';
import { model as leastConnections } from '../../lessons/least-connections/model/model';
import { parseTranscripts, type Transcript } from '../../src/core/model/transcript';
import type { LessonManifest } from '../../src/core/pack/schema';
import type { ReferenceModel } from '../../src/core/model/model';

const root = path.resolve(__dirname, '..', '..');
const ADVICE_ONE =
  'Terminals and the panel show it escaped (as \\u…), never raw: remove it, or write the words you meant.';
const ADVICE_MANY =
  'Terminals and the panel show them escaped (as \\u…), never raw: remove them, or write the words you meant.';
const GRAMMAR_ADVICE =
  'Fix the command, or add its form to the model\'s `grammar` (argument kinds: "name", "number", "names").';

/** 1-based line of the first line of `text` holding `needle`. */
const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('validate: control characters in lesson.json text', () => {
  it('is quiet on text with line breaks and tabs only', () => {
    const manifest = { title: 'two\nlines\tand a tab', outcomes: ['plain'] };
    assert.deepEqual(
      checkControlCharacters(manifest as unknown as LessonManifest, JSON.stringify(manifest, null, 2), 'lesson.json'),
      [],
    );
  });

  it('warns about an escape sequence in the title, at its line, naming the code point', () => {
    const manifest = { id: 'x', title: 'clear \u001b[2J' };
    const text = JSON.stringify(manifest, null, 2);
    const problems = checkControlCharacters(manifest as unknown as LessonManifest, text, 'pack/lesson.json');
    assert.equal(problems.length, 1);
    const p = problems[0]!;
    assert.equal(p.severity, 'warning');
    assert.equal(p.area, 'schema');
    assert.equal(p.file, 'pack/lesson.json');
    assert.equal(p.line, lineOf(text, '"title"'));
    assert.ok(p.column >= 1);
    assert.match(p.message, /\/title holds the control character U\+001B/);
    assert.equal(p.advice, ADVICE_ONE);
  });

  it('points into lists and escapes ~ and / in keys, with a four-digit upper-case code', () => {
    const manifest = { outcomes: ['fine', 'bidi \u200e here'], notes: { 'a/b~c': 'bell \u0007' } };
    const text = JSON.stringify(manifest, null, 2);
    const problems = checkControlCharacters(manifest as unknown as LessonManifest, text, 'lesson.json');
    assert.deepEqual(
      problems.map((p) => p.message.match(/(\S+) holds the control character (U\+\S+)/)!.slice(1)),
      [
        ['/outcomes/1', 'U+200E'],
        ['/notes/a~1b~0c', 'U+0007'],
      ],
    );
    assert.equal(problems[0]!.line, lineOf(text, 'bidi'));
    assert.equal(problems[1]!.line, lineOf(text, 'bell'));
  });

  it('names the root as / when the whole value is a string', () => {
    const problems = checkControlCharacters('\u0001' as unknown as LessonManifest, '"\\u0001"', 'lesson.json');
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, /^.*\/ holds the control character U\+0001/);
    assert.doesNotMatch(problems[0]!.message, /undefined/);
  });

  it('warns about the first 50 fields one by one, then names the rest in one warning', () => {
    const outcomes = Array.from({ length: 53 }, (_, i) => `o${i}\u0001`);
    const manifest = { outcomes };
    const text = JSON.stringify(manifest, null, 2);
    const problems = checkControlCharacters(manifest as unknown as LessonManifest, text, 'lesson.json');
    assert.equal(problems.length, 51);
    assert.match(problems[49]!.message, /\/outcomes\/49 holds/);
    const last = problems[50]!;
    assert.equal(
      last.message,
      'and 3 more text fields hold control characters: /outcomes/50, /outcomes/51, /outcomes/52',
    );
    assert.equal(last.advice, ADVICE_MANY);
    assert.equal(last.severity, 'warning');
    assert.equal(last.area, 'schema');
    assert.equal(last.file, 'lesson.json');
    assert.equal(last.line, lineOf(text, '"o50'));
    assert.ok(last.column >= 1);
  });

  it('lists at most 500 of the rest and counts the others', () => {
    const outcomes = Array.from({ length: 552 }, (_, i) => `o${i}\u0001`);
    const problems = checkControlCharacters(
      { outcomes } as unknown as LessonManifest,
      JSON.stringify({ outcomes }),
      'lesson.json',
    );
    const last = problems[problems.length - 1]!;
    assert.equal(problems.length, 51);
    assert.match(last.message, /^and 502 more text fields hold control characters: \/outcomes\/50, /);
    assert.match(last.message, /\/outcomes\/549, and 2 more$/);
    assert.doesNotMatch(last.message, /\/outcomes\/550/);
  });

  it('is quiet on the built-in lesson.json', () => {
    const text = fs.readFileSync(path.join(root, 'lessons/least-connections/lesson.json'), 'utf8');
    assert.deepEqual(checkControlCharacters(JSON.parse(text) as LessonManifest, text, 'lesson.json'), []);
  });
});

describe('validate: commands against the model grammar', () => {
  let transcripts: Transcript[];
  let manifest: Pick<LessonManifest, 'failureQuestions' | 'quiz'>;
  beforeEach(() => {
    transcripts = fs
      .readdirSync(path.join(root, 'lessons/least-connections/transcripts'))
      .flatMap((f) =>
        parseTranscripts(
          fs.readFileSync(path.join(root, 'lessons/least-connections/transcripts', f), 'utf8'),
          `transcripts/${f}`,
        ),
      );
    manifest = { failureQuestions: [], quiz: [] };
  });
  const run = (over: Partial<Parameters<typeof checkGrammar>[0]> = {}) =>
    checkGrammar({
      model: leastConnections,
      transcripts,
      manifest,
      manifestFile: 'lesson.json',
      modelFile: 'model/model.ts',
      seed: 3,
      ...over,
    });

  it('finds nothing wrong with the built-in pack', () => {
    assert.ok(transcripts.length > 0);
    assert.deepEqual(run(), []);
  });

  it('does not check a model without a grammar', () => {
    const bad = parseTranscripts('=== t: x\n> JUMP\nOK\n', 'transcripts/t.txt');
    assert.deepEqual(
      run({
        model: { ...leastConnections, grammar: undefined, poolSize: undefined } as ReferenceModel,
        transcripts: bad,
      }),
      [],
    );
  });

  it('points at the transcript line of a command outside the grammar', () => {
    const bad = parseTranscripts('=== t: x\n> POOL a b\nOK\n> JUMP\nOK\n> DONE\nOK\n', 'transcripts/t.txt');
    const problems = run({ transcripts: bad });
    assert.equal(problems.length, 2);
    assert.deepEqual(problems[0], {
      severity: 'error',
      area: 'transcripts',
      file: 'transcripts/t.txt',
      line: 4,
      message: 'transcript "t": `JUMP` is not a command of the protocol (its commands: POOL, PICK, DONE, STATUS)',
      advice: GRAMMAR_ADVICE,
    });
    assert.equal(problems[1]!.message, 'transcript "t": `DONE` does not fit `DONE <name>`');
    assert.equal(problems[1]!.line, 6);
  });

  it('checks the reset and observe commands, pointing at the model file', () => {
    const model = { ...leastConnections, resetCommand: 'RESET', observeCommand: 'STATUS now' } as ReferenceModel;
    const problems = run({ model, transcripts: [] });
    assert.deepEqual(problems, [
      {
        severity: 'error',
        area: 'model',
        file: 'model/model.ts',
        message:
          "the model's resetCommand: `RESET` is not a command of the protocol (its commands: POOL, PICK, DONE, STATUS)",
        advice: GRAMMAR_ADVICE,
      },
      {
        severity: 'error',
        area: 'model',
        file: 'model/model.ts',
        message: "the model's observeCommand: `STATUS now` does not fit `STATUS`",
        advice: GRAMMAR_ADVICE,
      },
    ]);
  });

  it('leaves out the file when there is no model file, and an absent observe command', () => {
    const model = { ...leastConnections, resetCommand: 'RESET', observeCommand: undefined } as ReferenceModel;
    const problems = run({ model, transcripts: [], modelFile: undefined });
    assert.equal(problems.length, 1);
    assert.equal('file' in problems[0]!, false);
    assert.match(problems[0]!.message, /^the model's resetCommand: /);
  });

  it('names a predict question, of either list, with its first bad command', () => {
    manifest = {
      failureQuestions: [
        { id: 'q1', kind: 'predict', commands: ['POOL a', 'FLY', 'SWIM'] },
        { id: 'q2', kind: 'predict', commands: ['PICK'] },
        { id: 'q4', kind: 'short' },
      ],
      quiz: [{ id: 'q3', kind: 'predict', commands: ['PICK x'] }],
    } as unknown as typeof manifest;
    const problems = run({ transcripts: [] });
    assert.deepEqual(
      problems.map((p) => [p.severity, p.area, p.file, p.message, p.advice]),
      [
        [
          'error',
          'questions',
          'lesson.json',
          'predict question "q1": `FLY` is not a command of the protocol (its commands: POOL, PICK, DONE, STATUS)',
          GRAMMAR_ADVICE,
        ],
        ['error', 'questions', 'lesson.json', 'predict question "q3": `PICK x` does not fit `PICK`', GRAMMAR_ADVICE],
      ],
    );
  });

  it('works without a quiz', () => {
    manifest = { failureQuestions: [{ id: 'q1', kind: 'predict', commands: ['FLY'] }] } as unknown as typeof manifest;
    assert.equal(run({ transcripts: [] }).length, 1);
  });

  it('warns once when generate() makes a command outside the grammar', () => {
    let calls = 0;
    const model = {
      ...leastConnections,
      poolSize: undefined,
      generate: () => {
        calls++;
        return ['PICK', 'TELEPORT'];
      },
    } as ReferenceModel;
    const problems = run({ model, transcripts: [] });
    assert.equal(calls, 1);
    assert.deepEqual(problems, [
      {
        severity: 'warning',
        area: 'model',
        file: 'model/model.ts',
        message:
          "the model's generate() makes a command outside its grammar: `TELEPORT` is not a command of the protocol (its commands: POOL, PICK, DONE, STATUS)",
        advice: 'Checks leave such commands out of the generated transcripts; make generate() and `grammar` agree.',
      },
    ]);
  });

  it('asks generate() for 100 transcripts of 2 to 24 commands', () => {
    const lengths: number[] = [];
    const model = {
      ...leastConnections,
      poolSize: undefined,
      generate: (_r: unknown, n: number) => {
        lengths.push(n);
        return ['PICK'];
      },
    } as unknown as ReferenceModel;
    assert.deepEqual(run({ model, transcripts: [] }), []);
    assert.equal(lengths.length, 100);
    assert.ok(
      lengths.every((n) => Number.isInteger(n) && n >= 2 && n <= 24),
      String(lengths),
    );
    assert.ok(Math.min(...lengths) <= 4 && Math.max(...lengths) >= 21, String(lengths));
  });
});

describe('validate: scenarios that claim to show a mistake', () => {
  let mutants: string[];
  beforeEach(() => {
    mutants = ['m1', 'm2'];
  });

  it('tells runs apart by every number', () => {
    assert.equal(sameRun({ a: [1, 2] }, { a: [1, 2] }), true);
    assert.equal(sameRun({ a: [1, 2] }, { a: [1, 3] }), false);
  });

  it('is an error when every mutant runs like the reference', () => {
    const f = showsFinding('burst', 'double-count', mutants, mutants, '/scenarios/0/shows/1');
    assert.deepEqual(f, {
      severity: 'error',
      pointer: '/scenarios/0/shows/1',
      message:
        'scenario "burst" says it shows mistake "double-count", but the model with double-count\'s mutants (m1, m2) gives the same run as the reference (the same measures at every tick): a learner with this mistake would look perfect under load',
      advice:
        'Change the scenario until the mistake matters (more load, a duplicate report, a burst, a longer outage), or remove the id from "shows": the learner would be sent to a chart that shows nothing.',
    });
  });

  it('names the one mutant when there is one', () => {
    const f = showsFinding('burst', 'leak', ['only'], ['only'], '/p');
    assert.equal(f?.severity, 'error');
    assert.match(f!.message, /the model with leak's mutant \(only\) gives the same run/);
  });

  it('is a warning when some mutants run like the reference', () => {
    const f = showsFinding('burst', 'leak', ['m1', 'm2', 'm3'], ['m1', 'm3'], '/p');
    assert.deepEqual(f, {
      severity: 'warning',
      pointer: '/p',
      message:
        'scenario "burst" shows mistake "leak" only in some of its forms: with its mutants m1, m3 the run is the same as the reference\'s',
      advice:
        'A learner whose mistake takes that form would look perfect under load: change the scenario until every form of the mistake matters, or accept that this chart shows only the others.',
    });
    assert.match(
      showsFinding('burst', 'leak', mutants, ['m2'], '/p')!.message,
      /with its mutant m2 the run is the same/,
    );
  });

  it('finds nothing when every mutant shows, or there are none', () => {
    assert.equal(showsFinding('burst', 'leak', mutants, [], '/p'), undefined);
    assert.equal(showsFinding('burst', 'leak', [], [], '/p'), undefined);
  });

  it('keeps only deterministic mutants the model knows', () => {
    const model = {
      mutations: [
        { id: 'a', description: '' },
        { id: 'b', description: '', nondeterministic: true },
        { id: 'c', description: '', nondeterministic: false },
      ],
    } as unknown as ReferenceModel;
    assert.deepEqual(evidenceMutants(model, ['a', 'b', 'c', 'd']), ['a', 'c']);
  });
});
