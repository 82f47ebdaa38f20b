/**
 * `lesson-companion validate`: everything about a pack that can be decided without running a process.
 * The reference must agree with every hidden transcript; every mistake must be caught and told apart
 * from every other (see adequacy.ts for the definitions); read-order anchors must resolve in the
 * starters; questions must point at things that exist. The Node side (src/node/authoring/validatePack.ts) loads
 * the files, runs the starters for real, and adds what it finds.
 */
import type { Adequacy } from './adequacy';
import { locate } from '../pack/manifest';
import type { ValidateLessonInput } from './lessonInput';
import { checkMistakes } from './mistakeChecks';
import { checkGrammar } from './grammarChecks';
import { checkModel } from './modelChecks';
import { checkControlCharacters } from './textChecks';
import type { ReferenceModel } from '../model/model';
import { checkPattern } from '../pack/patternSafety';
import type { Language, LessonManifest } from '../pack/schema';
import { simulate } from '../model/simulate';
import { locateFunction } from '../text/source';
import type { Transcript } from '../model/transcript';

export type { ValidationArea, ValidationProblem } from './problem';
export type { ValidateLessonInput } from './lessonInput';
export { checkMistakes } from './mistakeChecks';
export { checkAnswerHashes, checkQuestions, commandVocabulary } from './questionChecks';
import { checkAnswerHashes, checkQuestions } from './questionChecks';
import type { ValidationProblem } from './problem';

export const patternKey = (stepIndex: number, language: Language): string => `${stepIndex}:${language}`;

/** The starter file each read-order step opens, per language, with its text when the starter has it. */
export function readOrderTargets(
  input: Pick<ValidateLessonInput, 'manifest' | 'starterFiles'>,
): { stepIndex: number; language: Language; dir: string; target: string; source: string | undefined }[] {
  const out: ReturnType<typeof readOrderTargets> = [];
  input.manifest.readOrder.forEach((step, stepIndex) => {
    for (const [language, starter] of Object.entries(input.manifest.starters) as [
      Language,
      LessonManifest['starters'][Language],
    ][]) {
      const files = input.starterFiles[language];
      if (!starter || !files) continue;
      const target = step.file ?? starter.main;
      // The starter's files are keyed like `sub/dir/file.py`; a step may write `./file.py`.
      const source = files.get(
        target
          .split('/')
          .filter((s) => s !== '' && s !== '.')
          .join('/'),
      );
      out.push({ stepIndex, language, dir: starter.dir, target, source });
    }
  });
  return out;
}

export interface LessonValidation {
  readonly problems: readonly ValidationProblem[];
  readonly adequacy: Adequacy;
}

const show = (lines: readonly string[]): string =>
  lines.length === 0 ? '(nothing)' : lines.map((l) => `"${l}"`).join(' / ');

/** The reference's answers must be the transcripts' expected answers, command by command. */
export function checkTranscriptsAgree(model: ReferenceModel, transcripts: readonly Transcript[]): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  for (const t of transcripts) {
    const sim = simulate(
      model,
      t.steps.map((s) => s.command),
    );
    const bad = t.steps.findIndex((step, i) => {
      const got = sim.steps[i];
      return (
        !got ||
        got.crashed ||
        got.answer.length !== step.expected.length ||
        got.answer.some((l, k) => l !== step.expected[k])
      );
    });
    if (bad < 0) continue;
    const step = t.steps[bad]!;
    const got = sim.steps[bad];
    problems.push({
      severity: 'error',
      area: 'transcripts',
      file: t.file,
      line: step.line,
      message: got?.crashed
        ? `transcript "${t.name}": the reference model "${model.id}" cannot answer \`${step.command}\` (it stops here)`
        : `transcript "${t.name}": the reference answers \`${step.command}\` with ${show(got?.answer ?? [])} but the transcript expects ${show(step.expected)}`,
      advice: `Correct the expected answer lines under this command (the commands after it may need correcting too), or check that lesson.json names the right model ("${model.id}").`,
    });
  }
  return problems;
}

/** Every read-order step must find its anchor in every language's starter, as the learner will see it. */
export function checkReadOrder(
  input: Pick<ValidateLessonInput, 'manifest' | 'manifestText' | 'manifestFile' | 'starterFiles' | 'patternMatches'>,
): ValidationProblem[] {
  const { manifest, manifestText: text, manifestFile: file } = input;
  const problems: ValidationProblem[] = [];
  const at = (pointer: string, message: string, advice: string, severity: 'error' | 'warning' = 'error'): void => {
    const where = locate(text, file, pointer, message);
    problems.push({
      severity,
      area: 'read-order',
      file,
      line: where.line,
      column: where.column,
      message: where.message,
      advice,
    });
  };
  const regexes = new Map<number, RegExp | null>();
  manifest.readOrder.forEach((step, i) => {
    if (step.pattern === undefined) return;
    const verdict = checkPattern(step.pattern);
    regexes.set(i, verdict.ok ? verdict.regex : null);
    if (!verdict.ok) {
      at(
        `/readOrder/${i}/pattern`,
        `step ${i + 1}: ${verdict.message}`,
        'Fix the regular expression; remember that a backslash is written \\\\ in JSON.',
      );
    } else if (verdict.polynomial !== undefined) {
      at(
        `/readOrder/${i}/pattern`,
        `step ${i + 1}: "pattern" /${step.pattern}/ slows down more than linearly on long runs of ${JSON.stringify(verdict.polynomial)}: two repetitions can trade characters`,
        'It still works (the editor gives up after a second), but a pattern like "def\\\\s+pick" that anchors on a name is faster and clearer.',
        'warning',
      );
    }
  });
  for (const { stepIndex: i, language, dir, target, source } of readOrderTargets(input)) {
    const step = manifest.readOrder[i]!;
    const base = `/readOrder/${i}`;
    const regex = regexes.get(i);
    if (regex === null) continue; // reported above
    if (source === undefined) {
      at(
        step.file ? `${base}/file` : base,
        `step ${i + 1} opens "${target}", which is not in the ${language} starter (${dir})`,
        `Add the file to ${dir}, or fix "file" (it is relative to the starter folder, which becomes the learner's workspace).`,
      );
      continue;
    }
    if (step.symbol === '#top' || (step.symbol === undefined && regex === undefined)) continue;
    if (step.symbol !== undefined && locateFunction(source, language, step.symbol) !== null) continue;
    const matched = regex ? (input.patternMatches?.get(patternKey(i, language)) ?? regex.test(source)) : false;
    if (matched === 'timed-out') {
      at(
        `${base}/pattern`,
        `step ${i + 1} ("${step.title}"): pattern /${step.pattern}/ took too long on ${dir}/${target} and was stopped`,
        'Simplify the regular expression (no nested or adjacent repetitions of the same characters), or name a "symbol" instead.',
      );
    } else if (!matched) {
      const what = [
        step.symbol !== undefined ? `symbol "${step.symbol}"` : '',
        regex ? `pattern /${step.pattern}/` : '',
      ]
        .filter(Boolean)
        .join(' or ');
      at(
        step.symbol !== undefined ? `${base}/symbol` : `${base}/pattern`,
        `step ${i + 1} ("${step.title}"): ${what} is not found in ${dir}/${target}`,
        'Name a function, method or class the starter defines, add a "pattern" that matches its line, or use "#top".',
      );
    }
  }
  return problems;
}

/**
 * One check sends every hidden transcript to one process and stops it when it prints more than the output
 * limit, so transcripts whose answers alone exceed the limit would fail a correct program with "too much
 * output". Generated transcripts share the limit too, hence the warning well before it.
 */
export function checkOutputFits(
  model: ReferenceModel,
  transcripts: readonly Transcript[],
  limitBytes: number,
): ValidationProblem[] {
  const encoder = new TextEncoder();
  const bytesOf = (lines: readonly string[]): number =>
    lines.reduce((n, line) => n + encoder.encode(line).length + 1, 0);
  const reset = bytesOf(model.resetAnswer);
  let total = 0;
  let largest: { transcript: Transcript; bytes: number } | undefined;
  for (const t of transcripts) {
    const bytes = reset + t.steps.reduce((n, step) => n + bytesOf(step.expected), 0);
    total += bytes;
    if (!largest || bytes > largest.bytes) largest = { transcript: t, bytes };
  }
  const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(2)} MiB`;
  if (!largest || total <= limitBytes * 0.8) return [];
  const where = { area: 'transcripts' as const, file: largest.transcript.file, line: largest.transcript.line };
  if (total > limitBytes) {
    return [
      {
        severity: 'error',
        ...where,
        message: `the hidden transcripts' expected answers add up to ${mib(total)}, more than the ${mib(limitBytes)} a program may print in one check, so even a correct program would be stopped for printing too much (the largest is "${largest.transcript.name}", ${mib(largest.bytes)})`,
        advice:
          'Make the long transcripts shorter, or fewer: a transcript that shows a mistake rarely needs more than a few dozen commands.',
      },
    ];
  }
  return [
    {
      severity: 'warning',
      ...where,
      message: `the hidden transcripts' expected answers add up to ${mib(total)}, close to the ${mib(limitBytes)} a program may print in one check; the generated transcripts run in the same check and may push a correct program over it`,
      advice: 'Make the longest transcripts shorter, or lower "fuzz".',
    },
  ];
}

export async function validateLesson(input: ValidateLessonInput): Promise<LessonValidation> {
  const { problems: mistakeProblems, adequacy } = await checkMistakes(input);
  const modelProblems = input.modelFile
    ? checkModel({
        model: input.model,
        transcripts: input.transcripts,
        seed: input.seed,
        file: input.modelFile.path,
        source: input.modelFile.source,
        clock: input.clock ?? (() => 0),
      })
    : [];
  return {
    problems: [
      ...modelProblems,
      ...checkTranscriptsAgree(input.model, input.transcripts),
      ...checkGrammar({
        model: input.model,
        transcripts: input.transcripts,
        manifest: input.manifest,
        manifestFile: input.manifestFile,
        manifestText: input.manifestText,
        modelFile: input.modelFile?.path,
        seed: input.seed,
      }),
      ...(input.outputLimitBytes !== undefined
        ? checkOutputFits(input.model, input.transcripts, input.outputLimitBytes)
        : []),
      ...mistakeProblems,
      ...checkReadOrder(input),
      ...checkQuestions(input),
      ...checkAnswerHashes(input),
      ...checkControlCharacters(input.manifest, input.manifestText, input.manifestFile),
    ],
    adequacy,
  };
}
