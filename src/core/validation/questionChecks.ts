/**
 * `validate` on a pack's questions: steps and mistakes they point at exist, choice questions have choices,
 * predict questions have commands the reference model answers (`author-answers` asks the same before it hashes
 * a prediction, so it never hashes an answer the model cannot produce), and every question has answer hashes.
 */
import { locate } from '../pack/manifest';
import { grammarProblem } from '../model/grammar';
import type { ReferenceModel } from '../model/model';
import { seededRandom } from '../model/random';
import type { LessonManifest, Question } from '../pack/schema';
import { simulate } from '../model/simulate';
import { hasCheapShortAnswer } from '../quiz/quiz';

/** What the question checks read: the manifest, its text and name (to point at lines), and the model. */
interface QuestionInput {
  readonly manifest: LessonManifest;
  readonly manifestText: string;
  readonly manifestFile: string;
  readonly model: ReferenceModel;
}
import type { ValidationProblem } from './problem';

/** The first words of every command the model knows, learnt from its reset command and generated transcripts. */
export function commandVocabulary(model: ReferenceModel): Set<string> {
  const random = seededRandom(1);
  const verbs = new Set<string>([model.resetCommand.split(/\s+/)[0]!]);
  for (let i = 0; i < 300; i++) for (const c of model.generate(random, 24)) verbs.add(c.trim().split(/\s+/)[0]!);
  return verbs;
}

/**
 * Questions without answer hashes: one warning listing them all, so the model, transcripts and mistakes can
 * be validated before the questions are hashed. (Learners cannot answer such a question, so `bundle` refuses.)
 */
export function checkAnswerHashes(input: Omit<QuestionInput, 'model'>): ValidationProblem[] {
  return [...missingAnswerHashes(input), ...cheapShortAnswers(input)];
}

/**
 * `short` answers still stored as sha256 (packs hashed before scrypt): they work, but a word list tries a
 * hundred thousand guesses a second against them. One warning lists them; author-answers rewrites them.
 */
function cheapShortAnswers(input: Omit<QuestionInput, 'model'>): ValidationProblem[] {
  const { manifest } = input;
  const located = [
    ...manifest.failureQuestions.map((q, i) => ({ q, pointer: `/failureQuestions/${i}/answer` })),
    ...(manifest.quiz ?? []).map((q, i) => ({ q, pointer: `/quiz/${i}/answer` })),
  ].filter(({ q }) => hasCheapShortAnswer(q));
  if (located.length === 0) return [];
  const ids = located.map(({ q }) => q.id);
  const message = `${ids.length === 1 ? 'the short answer of' : `the short answers of ${ids.length} questions,`} ${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'} stored as sha256, which a script guesses at about a hundred thousand words a second`;
  const where = locate(input.manifestText, input.manifestFile, located[0]!.pointer, message);
  return [
    {
      severity: 'warning',
      area: 'questions',
      code: 'cheap-answer-hash',
      file: input.manifestFile,
      line: where.line,
      column: where.column,
      message,
      advice:
        'Run `lesson-companion author-answers <pack>` again: it stores short answers as scrypt, so each guess costs tens of milliseconds. The answers keep working as they are until then.',
    },
  ];
}

function missingAnswerHashes(input: Omit<QuestionInput, 'model'>): ValidationProblem[] {
  const { manifest } = input;
  const unhashed = [...manifest.failureQuestions, ...(manifest.quiz ?? [])].filter((q) => !q.answer).map((q) => q.id);
  if (unhashed.length === 0) return [];
  const firstList = manifest.failureQuestions.some((q) => !q.answer) ? 'failureQuestions' : 'quiz';
  const index = (firstList === 'quiz' ? (manifest.quiz ?? []) : manifest.failureQuestions).findIndex((q) => !q.answer);
  const message = `${unhashed.length === 1 ? 'question' : `${unhashed.length} questions`} without answer hashes: ${unhashed.join(', ')}; learners cannot answer ${unhashed.length === 1 ? 'it' : 'them'} yet, and bundle refuses the pack until they are hashed`;
  const where = locate(input.manifestText, input.manifestFile, `/${firstList}/${index}`, message);
  return [
    {
      severity: 'warning',
      area: 'questions',
      code: 'missing-answers',
      file: input.manifestFile,
      line: where.line,
      column: where.column,
      message,
      advice: `Write their answers in authoring/${manifest.id}.answers.json ({"lesson": "${manifest.id}", "questions": {"<id>": {"accept": ["…"]}}}; predict questions need no "accept") and run \`lesson-companion author-answers <pack>\`.`,
    },
  ];
}

/**
 * The commands of a predict question that the reference cannot answer as a learner would be asked them:
 * outside the model's grammar (when it declares one), else a verb the model never uses, or one it crashes on
 * (and every one after it). Such a prediction would be the model's `ERROR` or nothing: never an answer to hash.
 */
export function predictCommandProblems(
  model: ReferenceModel,
  commands: readonly string[],
  verbs: ReadonlySet<string> = commandVocabulary(model),
  /** False where checkGrammar (grammarChecks.ts) already reports commands outside the grammar. */
  withGrammar = true,
): { index: number; problem: string; crashed?: true }[] {
  const sim = simulate(model, commands);
  const problems: ReturnType<typeof predictCommandProblems> = [];
  for (const [index, command] of commands.entries()) {
    const outside = model.grammar && withGrammar ? grammarProblem(model.grammar, command) : undefined;
    if (outside) problems.push({ index, problem: outside });
    else if (!model.grammar && !verbs.has(command.trim().split(/\s+/)[0]!))
      problems.push({
        index,
        problem: `\`${command}\` is not a command of the "${model.id}" protocol (it knows ${[...verbs].join(', ')})`,
      });
    else if (sim.steps[index]?.crashed || !sim.steps[index])
      problems.push({ index, problem: `the reference cannot answer \`${command}\``, crashed: true });
  }
  return problems;
}

type At = (pointer: string, message: string, advice: string, severity?: 'error' | 'warning') => void;

/** One question's own fields: its step, its choices, and a predict question's commands. */
function checkQuestion(
  q: Question,
  base: string,
  steps: number,
  input: QuestionInput,
  verbs: Set<string>,
  at: At,
): void {
  if (q.step !== undefined && q.step > steps)
    at(
      `${base}/step`,
      `question "${q.id}" points at read-order step ${q.step}, but there are only ${steps} steps`,
      'Steps count from 1 in readOrder order.',
    );
  const choiceKind = q.kind === 'single' || q.kind === 'multiple';
  if (choiceKind && !q.choices)
    at(
      base,
      `question "${q.id}" is a ${q.kind}-choice question without "choices"`,
      'Add "choices": a list of at least two answers to pick from.',
    );
  if (!choiceKind && q.choices)
    at(
      `${base}/choices`,
      `question "${q.id}" is a ${q.kind} question, so its "choices" are never shown`,
      'Remove "choices", or make the kind "single" or "multiple".',
      'warning',
    );
  if (q.kind !== 'predict') {
    if (q.commands)
      at(
        `${base}/commands`,
        `question "${q.id}" is a ${q.kind} question, so its "commands" are never run`,
        'Remove "commands", or make the kind "predict".',
        'warning',
      );
    return;
  }
  if (!q.commands) {
    at(
      base,
      `predict question "${q.id}" has no "commands" for the learner to predict`,
      'Add "commands": the transcript whose output the learner predicts; the reference answers it.',
    );
    return;
  }
  for (const bad of predictCommandProblems(input.model, q.commands, verbs, false))
    at(
      `${base}/commands/${bad.index}`,
      `predict question "${q.id}": ${bad.problem}`,
      bad.crashed
        ? 'Fix or remove this command.'
        : 'Fix the command; the reference model computes the answer the learner must predict.',
    );
}

export function checkQuestions(input: QuestionInput): ValidationProblem[] {
  const { manifest, manifestText: text, manifestFile: file, model } = input;
  const problems: ValidationProblem[] = [];
  const at: At = (pointer, message, advice, severity = 'error') => {
    const where = locate(text, file, pointer, message);
    problems.push({
      severity,
      area: 'questions',
      file,
      line: where.line,
      column: where.column,
      message: where.message,
      advice,
    });
  };
  const steps = manifest.readOrder.length;
  const verbs = commandVocabulary(model);
  const lists: [string, readonly Question[]][] = [
    ['failureQuestions', manifest.failureQuestions],
    ['quiz', manifest.quiz ?? []],
  ];
  for (const [list, questions] of lists)
    questions.forEach((q, i) => checkQuestion(q, `/${list}/${i}`, steps, input, verbs, at));
  const ids = new Set([...manifest.failureQuestions, ...(manifest.quiz ?? [])].map((q) => q.id));
  manifest.mistakes.forEach((m, i) => {
    if (m.question !== undefined && !ids.has(m.question)) {
      at(
        `/mistakes/${i}/question`,
        `mistake "${m.id}" names question "${m.question}", which does not exist`,
        `Use the id of one of the failure questions${ids.size ? ` (${[...ids].join(', ')})` : ''}, or remove "question".`,
      );
    }
    if (m.step !== undefined && m.step > steps)
      at(
        `/mistakes/${i}/step`,
        `mistake "${m.id}" points at read-order step ${m.step}, but there are only ${steps} steps`,
        'Steps count from 1 in readOrder order.',
      );
  });
  return problems;
}
