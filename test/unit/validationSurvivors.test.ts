/**
 * What `validate` reports about a pack's lesson.json, transcripts and mistakes (validate.ts, textChecks.ts), on a
 * toy model and a small lesson.json built for each case: mutants StrykerJS left alive there (a reference that
 * crashes or disagrees on a transcript's first or last command, the protocol's verbs, the lines warnings about
 * questions and mistakes point at, the largest transcript, the names and advice of proposals, null in
 * lesson.json). Each test pins what an instructor reads: the problem, its severity, the line, the names.
 */
import * as assert from 'node:assert/strict';
import {
  checkAnswerHashes,
  checkMistakes,
  checkOutputFits,
  checkQuestions,
  checkReadOrder,
  checkTranscriptsAgree,
  readOrderTargets,
} from '../../src/core/validation/validate';
import { checkControlCharacters } from '../../src/core/validation/textChecks';
import { parseTranscripts } from '../../src/core/model/transcript';
import type { LessonManifest } from '../../src/core/pack/schema';
import type { ReferenceModel } from '../../src/core/model/model';
import { lineOf, toyLesson, toyModel } from './validationToys';

const transcripts = (text: string) => parseTranscripts(text, 'transcripts/hidden.txt');

/** GET answers 0 (1 under any mutation), BOOM crashes, every other command answers OK. */
const plainModel = (mutations: string[] = []): ReferenceModel =>
  toyModel({
    mutations,
    answer: (command, on) => (command === 'GET' ? [on.size > 0 ? '1' : '0'] : command === 'BOOM' ? 'crash' : ['OK']),
    commands: ['GET', 'NOP', 'BOOM'],
  });

/** checkQuestions on the toy lesson with `over` and the plain model. */
const questionProblems = (over: Record<string, unknown>) => {
  const { manifest, text } = toyLesson(over);
  return {
    text,
    problems: checkQuestions({ manifest, manifestText: text, manifestFile: 'lesson.json', model: plainModel() }),
  };
};

describe('validate survivors: transcripts against the reference', () => {
  it('says the reference cannot answer the last command, one that expects no lines', () => {
    const text = '=== t: x\n> NOP\nOK\n> BOOM\n';
    const problems = checkTranscriptsAgree(plainModel(), transcripts(text));
    assert.deepEqual(
      problems.map((p) => [p.severity, p.file, p.line]),
      [['error', 'transcripts/hidden.txt', lineOf(text, '> BOOM')]],
    );
    assert.match(problems[0]!.message, /^transcript "t": the reference model "toy" cannot answer `BOOM`/);
  });

  it("says when the first command's expected answer is wrong", () => {
    const text = '=== t: x\n> GET\nwrong\n> NOP\nOK\n';
    const problems = checkTranscriptsAgree(plainModel(), transcripts(text));
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line]),
      [['error', lineOf(text, '> GET')]],
    );
    assert.match(problems[0]!.message, /answers `GET` with "0" but the transcript expects "wrong"/);
  });
});

describe('validate survivors: questions', () => {
  it('knows the verbs of all 300 generated transcripts, no more', () => {
    let calls = 0;
    // commandVocabulary asks generate() for 300 transcripts; a 301st would be the first to say FLY.
    const model = toyModel({ answer: () => ['OK'], generate: () => [calls++ === 300 ? 'FLY' : 'GET'] });
    const { manifest, text } = toyLesson({
      quiz: [{ id: 'fly', kind: 'predict', prompt: 'p', commands: ['GET', 'FLY'] }],
    });
    const problems = checkQuestions({ manifest, manifestText: text, manifestFile: 'lesson.json', model });
    assert.equal(calls, 300);
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line]),
      [['error', lineOf(text, '"FLY"')]],
    );
    assert.match(
      problems[0]!.message,
      /predict question "fly": `FLY` is not a command of the "toy" protocol \(it knows RESET, GET\)/,
    );
  });

  it('points a quiz question\'s step past the read order at its "step"', () => {
    const { text, problems } = questionProblems({ quiz: [{ id: 'late', kind: 'short', prompt: 'p', step: 3 }] });
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line]),
      [['error', lineOf(text, '"step"')]],
    );
    assert.match(
      problems[0]!.message,
      /^quiz\.0\.step: question "late" points at read-order step 3, but there are only 1 steps/,
    );
  });

  it('points "choices" a kind never shows and "commands" a kind never runs at those fields', () => {
    const { text, problems } = questionProblems({
      failureQuestions: [
        { id: 'worded', kind: 'short', prompt: 'p', choices: ['a', 'b'] },
        { id: 'picked', kind: 'single', prompt: 'p', choices: ['a', 'b'], commands: ['GET'] },
      ],
    });
    assert.deepEqual(
      problems.map((p) => [
        p.severity,
        p.line,
        p.message.match(/question "(\w+)" is a \w+ question, so its "(\w+)"/)?.slice(1),
      ]),
      [
        ['warning', lineOf(text, '"choices"'), ['worded', 'choices']],
        ['warning', lineOf(text, '"commands"'), ['picked', 'commands']],
      ],
    );
  });

  it('flags the command a predict question crashes the reference on, and every command after it', () => {
    const { text, problems } = questionProblems({
      quiz: [{ id: 'crashy', kind: 'predict', prompt: 'p', commands: ['NOP', 'BOOM', 'GET'] }],
    });
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line, p.message.match(/the reference cannot answer `(\w+)`/)?.[1]]),
      [
        ['error', lineOf(text, '"BOOM"'), 'BOOM'],
        ['error', lineOf(text, '"GET"'), 'GET'],
      ],
    );
  });

  it('reports a mistake whose question does not exist, at its "question", and not one without a question', () => {
    const { text, problems } = questionProblems({
      mistakes: [
        { id: 'quiet', mutants: ['x'] },
        { id: 'lost', mutants: ['x'], question: 'gone' },
      ],
    });
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line]),
      [['error', lineOf(text, '"question"')]],
    );
    assert.match(problems[0]!.message, /mistake "lost" names question "gone", which does not exist/);
  });

  it('points the warning about a quiz short answer stored as sha256 at its "answer"', () => {
    const { manifest, text } = toyLesson({
      quiz: [{ id: 'cheap', kind: 'short', prompt: 'p', answer: { salt: 's', sha256: ['0'.repeat(64)] } }],
    });
    const problems = checkAnswerHashes({ manifest, manifestText: text, manifestFile: 'lesson.json' });
    assert.deepEqual(
      problems.map((p) => [p.severity, p.code, p.line]),
      [['warning', 'cheap-answer-hash', lineOf(text, '"answer"')]],
    );
    assert.match(problems[0]!.message, /the short answer of cheap is stored as sha256/);
  });
});

describe('validate survivors: read order and output', () => {
  it("finds a step's file written with a doubled slash", () => {
    const { manifest, text } = toyLesson({ readOrder: [{ title: 'sub', file: 'sub//main.py', symbol: '#top' }] });
    const starterFiles = { python: new Map([['sub/main.py', 'print(1)\n']]) };
    assert.deepEqual(
      readOrderTargets({ manifest, starterFiles }).map((t) => t.source),
      ['print(1)\n'],
    );
    assert.deepEqual(checkReadOrder({ manifest, manifestText: text, manifestFile: 'lesson.json', starterFiles }), []);
  });

  it('names the first of two equally large transcripts as the largest', () => {
    const text = '=== one: x\n> GET\n0\n=== two: y\n> GET\n0\n';
    const problems = checkOutputFits(plainModel(), transcripts(text), 9); // each is "OK\n0\n": 5 bytes, 10 in all
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line]),
      [['error', lineOf(text, '=== one')]],
    );
    assert.match(problems[0]!.message, /\(the largest is "one", /);
  });
});

describe('validate survivors: mistakes', () => {
  /** checkMistakes on the toy lesson with these mistakes and hidden transcripts. */
  const mistakeProblems = async (model: ReferenceModel, mistakes: unknown[], hidden: string) => {
    const { manifest, text } = toyLesson({ mistakes });
    const input = {
      manifest,
      manifestText: text,
      manifestFile: 'lesson.json',
      model,
      transcripts: transcripts(hidden),
      starterFiles: {},
      seed: 1,
    };
    return (await checkMistakes(input)).problems;
  };

  it('lists every never-caught mutation of a mistake caught otherwise, comma-separated', async () => {
    // m1 changes GET, which the transcript asks; m2 and m3 change only LIST, which it never asks.
    const model = toyModel({
      mutations: ['m1', 'm2', 'm3'],
      answer: (command, on) => [
        (command === 'GET' && on.has('m1')) || (command === 'LIST' && (on.has('m2') || on.has('m3'))) ? '1' : '0',
      ],
      commands: ['GET', 'LIST'],
    });
    const problems = await mistakeProblems(
      model,
      [{ id: 'counts', mutants: ['m1', 'm2', 'm3'] }],
      '=== t: x\n> GET\n0\n',
    );
    assert.deepEqual(
      problems.map((p) => [
        p.severity,
        p.message.match(/mutation (.*) is never caught by a hidden transcript \(the others are\)/)?.[1],
      ]),
      [['warning', 'm2, m3']],
    );
  });

  it("names a proposal so that it is no hidden transcript's name", async () => {
    const problems = await mistakeProblems(
      plainModel(['x']),
      [{ id: 'x', mutants: ['x'] }],
      '=== catches-x: does not\n> NOP\nOK\n',
    );
    assert.deepEqual(
      problems.map((p) => [p.severity, p.proposal?.split('\n')[0]]),
      [['error', '=== catches-x-2: catches x (x)']],
    );
  });

  it('names two proposals apart when their names are cut to the same 60 characters', async () => {
    const stem = 'p'.repeat(52);
    const problems = await mistakeProblems(
      plainModel(['m1', 'm2']),
      [
        { id: `${stem}-one`, mutants: ['m1'] },
        { id: `${stem}-two`, mutants: ['m2'] },
      ],
      '=== t: x\n> NOP\nOK\n',
    );
    const name = `catches-${stem}`.slice(0, 60);
    assert.deepEqual(
      problems.map((p) => p.proposal?.split(':')[0]),
      [`=== ${name}`, `=== ${name}-2`],
    );
  });

  it('compares an uncaught mutation with the reference, not with a mutation the model happens to declare', async () => {
    // The model also declares a mutation (its id is one a mutation tool writes) that answers like "x".
    const problems = await mistakeProblems(
      plainModel(['x', 'Stryker was here']),
      [{ id: 'm', mutants: ['x'] }],
      '=== t: x\n> NOP\nOK\n',
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.advice!, /^Add a transcript like the one below/);
    assert.match(problems[0]!.proposal!, /^=== catches-m: catches m \(x\)\n> GET\n0\n/);
  });

  it('advises adding the proposal that tells two mistakes apart', async () => {
    // a and b both change GET, the only command the hidden transcript asks; only b changes LIST.
    const model = toyModel({
      mutations: ['a', 'b'],
      answer: (command, on) => [command === 'GET' ? (on.size > 0 ? '1' : '0') : on.has('b') ? '1' : '0'],
      commands: ['GET', 'LIST'],
    });
    const problems = await mistakeProblems(
      model,
      [
        { id: 'first', mutants: ['a'] },
        { id: 'second', mutants: ['b'] },
      ],
      '=== t: x\n> GET\n0\n',
    );
    assert.deepEqual(
      problems.map((p) => [
        p.severity,
        p.message.match(/^mistakes "(\w+)" and "(\w+)" cannot be told apart/)?.slice(1),
      ]),
      [['error', ['first', 'second']]],
    );
    assert.match(problems[0]!.advice!, /^Add a transcript like the one below/);
    assert.match(problems[0]!.proposal!, /^=== tells-first-from-second: [^\n]*\n> LIST\n0\n/);
  });
});

describe('validate survivors: control characters', () => {
  it('walks past a null in lesson.json to the text after it', () => {
    const manifest = { id: 'toy', scenarios: [{ id: 's', params: { limit: null, note: 'bell \u0007' } }] };
    const text = JSON.stringify(manifest, null, 2);
    const problems = checkControlCharacters(manifest as unknown as LessonManifest, text, 'lesson.json');
    assert.deepEqual(
      problems.map((p) => [p.severity, p.line]),
      [['warning', lineOf(text, '"note"')]],
    );
    assert.match(problems[0]!.message, /\/scenarios\/0\/params\/note holds the control character U\+0007/);
  });
});
