/**
 * Validates a pack folder: loads it (schema, files, transcripts), runs the pure checks of
 * core/validate.ts, and runs every starter for real to prove that it does not already pass.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Adequacy } from '../../core/validation/adequacy';
import { defaultSeed } from '../../core/check/check';
import { locate } from '../../core/pack/manifest';
import { friendlyManifestMessage } from '../../core/pack/manifestMessages';
import { checkTemplateScenarios } from '../../worlds/templates/templateChecks';
import { checkWorldScenarios } from './worldChecks';
import { conversionFindings } from './scenarioConversion';
import { SHIPPED_QUEUE_WORLD } from '../engine/modelLoader';
import type { Language } from '../../core/pack/schema';
import { checkPattern } from '../../core/pack/patternSafety';
import {
  patternKey,
  readOrderTargets,
  validateLesson,
  type ValidateLessonInput,
  type ValidationArea,
  type ValidationProblem,
} from '../../core/validation/validate';
import { checkFile, DEFAULT_OUTPUT_LIMIT_BYTES } from '../check/checker';
import type { Interpreters } from '../languages/languages';
import { loadPack, MANIFEST_FILE, PackError, readPackFile, resolveInside, type LoadedPack } from '../packs/packs';
import { searchPattern } from '../packs/patternMatch';
import { makeTempDir } from '../sandbox/tempDir';
import { ModelError } from '../engine/modelLoader';
import { modelThrewProblem } from './modelFailure';
import { typeCheckModel, type TypeCheck } from './typeCheck';

export interface ValidatePackOptions {
  readonly interpreters?: Partial<Interpreters>;
  /** Running the starters takes seconds; tests of the pure checks turn it off. */
  readonly runStarters?: boolean;
  readonly seed?: number;
  /** The folder with the model's declaration files (media/): with it, a TypeScript model is type-checked. */
  readonly typesDir?: string;
  /** Where a global TypeScript is looked for (NODE_PATH, npm_config_prefix). */
  readonly env?: NodeJS.ProcessEnv;
}

export interface StarterRun {
  readonly language: Language;
  /** fails: unsolved, as it should be; passes: already solved; broken: does not compile; not-run: no interpreter. */
  readonly result: 'fails' | 'passes' | 'broken' | 'not-run';
}

export interface PackValidation {
  readonly valid: boolean;
  readonly dir: string;
  readonly id?: string;
  readonly version?: string;
  readonly model?: string;
  readonly problems: readonly ValidationProblem[];
  readonly adequacy?: Adequacy;
  readonly starters: readonly StarterRun[];
  /** Whether a TypeScript model was type-checked (absent for a JavaScript model, or without `typesDir`). */
  readonly typeCheck?: TypeCheck;
  readonly counts?: {
    readonly transcripts: number;
    readonly mistakes: number;
    readonly steps: number;
    readonly questions: number;
    readonly scenarios: number;
    readonly languages: readonly Language[];
  };
}

const MAX_STARTER_FILES = 200;

function areaOf(file: string, pointer: string): ValidationArea {
  if (pointer === '/model') return 'model';
  if (file !== MANIFEST_FILE) return 'transcripts';
  if (pointer.startsWith('/starters')) return 'files';
  if (pointer.startsWith('/mistakes')) return 'mistakes';
  if (pointer.startsWith('/transcripts')) return 'transcripts';
  if (pointer.startsWith('/readOrder')) return 'read-order';
  if (pointer.startsWith('/quiz') || pointer.startsWith('/failureQuestions')) return 'questions';
  if (pointer.startsWith('/scenarios')) return 'scenarios';
  return 'schema';
}

function fromPackError(dir: string, error: PackError, manifestText: string): ValidationProblem[] {
  return error.problems.map((p) => {
    const file = path.isAbsolute(p.file) ? path.relative(dir, p.file) || MANIFEST_FILE : p.file;
    return {
      severity: 'error',
      area: areaOf(file, p.path),
      file,
      line: p.line,
      column: p.column,
      message: file === MANIFEST_FILE ? friendlyManifestMessage(p.message, p.path, manifestText) : p.message,
    };
  });
}

/** The starter folder's files as the learner's workspace will hold them: relative path → text. */
async function starterFiles(pack: LoadedPack, dir: string): Promise<Map<string, string>> {
  const root = await resolveInside(pack.dir, dir);
  const files = new Map<string, string>();
  if (!root) return files;
  const walk = async (relative: string): Promise<void> => {
    const entries = await fs.readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (files.size >= MAX_STARTER_FILES) return;
      if (entry.isDirectory()) await walk(rel);
      else if (entry.isFile()) files.set(rel, await readPackFile(pack.dir, `${dir}/${rel}`).catch(() => ''));
    }
  };
  await walk('');
  return files;
}

/**
 * Each read-order pattern matched against the starter file its step opens, in a worker with a time bound,
 * as the editor will match it: a pattern the analyser let through can still be slow on some text.
 */
async function matchPatterns(
  input: Pick<ValidateLessonInput, 'manifest' | 'starterFiles'>,
): Promise<Map<string, boolean | 'timed-out'>> {
  const matches = new Map<string, boolean | 'timed-out'>();
  const queue = readOrderTargets(input).filter(({ stepIndex, source }) => {
    const pattern = input.manifest.readOrder[stepIndex]!.pattern;
    return pattern !== undefined && source !== undefined && checkPattern(pattern).ok;
  });
  // A few workers at a time: a pack may have a hundred steps in three languages.
  const searchers = Array.from({ length: Math.min(4, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const search = await searchPattern(input.manifest.readOrder[next.stepIndex]!.pattern!, next.source!);
      matches.set(
        patternKey(next.stepIndex, next.language),
        search.found || (search.why === 'timed-out' ? 'timed-out' : false),
      );
    }
  });
  await Promise.all(searchers);
  return matches;
}

/** Runs the starter the way a learner would first check it: copied into a fresh workspace. */
async function runStarter(
  pack: LoadedPack,
  language: Language,
  options: ValidatePackOptions,
): Promise<{ run: StarterRun; problem?: ValidationProblem }> {
  const starter = pack.manifest.starters[language]!;
  const source = await resolveInside(pack.dir, starter.dir);
  const workspace = await makeTempDir('lesson-companion-validate-');
  const file = `${starter.dir}/${starter.main}`;
  try {
    await fs.cp(source!, workspace, { recursive: true });
    const report = await checkFile(pack, path.join(workspace, starter.main), language, {
      fuzzTranscripts: 0,
      ...(options.interpreters ? { interpreters: options.interpreters } : {}),
    });
    const missing = report.problems.find((p) => p.kind === 'interpreter-missing');
    if (missing) {
      return {
        run: { language, result: 'not-run' },
        problem: {
          severity: 'warning',
          area: 'starters',
          file,
          message: `the ${language} starter was not run: ${missing.message}`,
          advice: `${missing.advice ?? ''} Until it runs, nothing shows that the starter is unsolved.`.trim(),
        },
      };
    }
    const syntax = report.problems.find((p) => p.kind === 'syntax');
    if (syntax) {
      return {
        run: { language, result: 'broken' },
        problem: {
          severity: 'error',
          area: 'starters',
          file,
          ...(syntax.line ? { line: syntax.line } : {}),
          message: `the ${language} starter does not compile: ${syntax.message.replace(/^Your file does not compile: /, '')}`,
          advice:
            'Learners must start from a file that runs: leave the functions to write as stubs that raise (Python: NotImplementedError; JavaScript/TypeScript: throw new Error("TODO")).',
        },
      };
    }
    if (report.status === 'pass') {
      return {
        run: { language, result: 'passes' },
        problem: {
          severity: 'error',
          area: 'starters',
          file,
          message: `the ${language} starter already passes every hidden transcript, so learners have nothing to do`,
          advice:
            'Replace the bodies of the functions learners write with stubs that raise (Python: NotImplementedError; JavaScript/TypeScript: throw new Error("TODO")).',
        },
      };
    }
    return { run: { language, result: 'fails' } };
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

/** The pure checks (core/validation) and the scenario checks; throws ModelError when the model throws. */
async function packChecks(
  pack: LoadedPack,
  manifestText: string,
  files: Partial<Record<Language, Map<string, string>>>,
  options: ValidatePackOptions,
): Promise<{ problems: ValidationProblem[]; adequacy: Adequacy }> {
  const { manifest, dir } = pack;
  const lesson = await validateLesson({
    manifest,
    manifestText,
    manifestFile: MANIFEST_FILE,
    model: pack.model!,
    transcripts: pack.transcripts,
    starterFiles: files,
    seed: options.seed ?? defaultSeed(manifest),
    patternMatches: await matchPatterns({ manifest, starterFiles: files }),
    outputLimitBytes: DEFAULT_OUTPUT_LIMIT_BYTES,
    modelFile: { path: manifest.model, source: await readPackFile(dir, manifest.model).catch(() => '') },
    clock: () => performance.now(),
  });
  const problems: ValidationProblem[] = [...lesson.problems];
  // The model's own text says whether it already exports the shipped queue world the conversion runs in.
  const modelSource = await readPackFile(dir, manifest.model).catch(() => '');
  const conversions = conversionFindings(
    manifest.scenarios,
    modelSource.includes(`'${SHIPPED_QUEUE_WORLD}'`) || modelSource.includes(`"${SHIPPED_QUEUE_WORLD}"`),
  );
  for (const finding of [
    ...(await checkTemplateScenarios(manifest, pack.model!)),
    ...(await checkWorldScenarios(manifest, pack.model!)),
    ...conversions,
  ]) {
    const where = locate(manifestText, MANIFEST_FILE, finding.pointer, finding.message);
    problems.push({
      severity: finding.severity,
      area: 'scenarios',
      file: MANIFEST_FILE,
      line: where.line,
      column: where.column,
      message: finding.message,
      ...(finding.advice ? { advice: finding.advice } : {}),
    });
  }
  return { problems, adequacy: lesson.adequacy };
}

/** A TypeScript model checked by the instructor's TypeScript compiler, when validate knows the types' folder. */
async function modelTypeCheck(
  pack: LoadedPack,
  options: ValidatePackOptions,
): Promise<{ check?: TypeCheck; problems: ValidationProblem[] }> {
  if (!options.typesDir || !/\.[cm]?ts$/.test(pack.manifest.model)) return { problems: [] };
  const modelFile = await resolveInside(pack.dir, pack.manifest.model);
  if (!modelFile) return { problems: [] };
  return typeCheckModel(pack.dir, modelFile, options.typesDir, options.env ?? process.env);
}

export async function validatePack(dir: string, options: ValidatePackOptions = {}): Promise<PackValidation> {
  const manifestText = await readPackFile(dir, MANIFEST_FILE).catch(() => '');
  let pack: LoadedPack;
  try {
    pack = await loadPack(dir, 'folder', { model: true, allowMissingAnswers: true });
  } catch (error) {
    if (!(error instanceof PackError)) throw error;
    return { valid: false, dir, problems: fromPackError(dir, error, manifestText), starters: [] };
  }
  const { manifest } = pack;
  const languages = Object.keys(manifest.starters) as Language[];
  const files: Partial<Record<Language, Map<string, string>>> = {};
  for (const language of languages) files[language] = await starterFiles(pack, manifest.starters[language]!.dir);
  const problems: ValidationProblem[] = [];
  let adequacy: Adequacy | undefined;
  let threw = false;
  try {
    const checked = await packChecks(pack, manifestText, files, options);
    problems.push(...checked.problems);
    adequacy = checked.adequacy;
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    problems.push(modelThrewProblem(dir, error, pack.model, pack.transcripts));
    threw = true;
  }
  const typed = await modelTypeCheck(pack, options);
  problems.push(...typed.problems);
  const starters: StarterRun[] = [];
  // A starter's check would only end in the model's exception again, said above once.
  if (options.runStarters !== false && !threw) {
    // Concurrently: each run mostly waits for short-lived learner processes.
    const runs = await Promise.all(languages.map((language) => runStarter(pack, language, options)));
    for (const { run, problem } of runs) {
      starters.push(run);
      if (problem) problems.push(problem);
    }
  }
  return {
    valid: !problems.some((p) => p.severity === 'error'),
    dir,
    id: manifest.id,
    version: manifest.version,
    model: manifest.model,
    problems,
    ...(adequacy ? { adequacy } : {}),
    starters,
    ...(typed.check ? { typeCheck: typed.check } : {}),
    counts: {
      transcripts: pack.transcripts.length,
      mistakes: manifest.mistakes.length,
      steps: manifest.readOrder.length,
      questions: manifest.failureQuestions.length + (manifest.quiz?.length ?? 0),
      scenarios: manifest.scenarios?.length ?? 0,
      languages,
    },
  };
}
