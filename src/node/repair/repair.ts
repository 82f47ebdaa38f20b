/**
 * Rung 4 of the hint ladder: a fix to the learner's own file, found by search over edits at the lines the
 * report located (src/core/repair) and shown only once verified: the fixed copy passes every hidden
 * transcript and the generated ones at two seeds, by the same check and in the same sandbox as any check.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { PassingBatch } from '../../core/check/check';
import type { Language } from '../../core/pack/schema';
import type { CheckReport } from '../../core/report/report';
import type { RepairTarget } from '../../core/repair/plan';
import type { RepairResult, Verified } from '../../core/repair/result';
import { editedLines } from '../../core/repair/tree';
import {
  checkFile,
  DEFAULT_OUTPUT_LIMIT_BYTES,
  DEFAULT_TIME_LIMIT_MS,
  timeLimitFor,
  type CheckFileOptions,
} from '../check/checker';
import { PassingBatchStore } from '../check/fastPass';
import { resolveInside, type LoadedPack } from '../packs/packs';
import { DEFAULT_INTERPRETERS } from '../languages/languages';
import { sandboxSettingFromEnv } from '../sandbox/sandbox';
import { CandidateRunner } from './candidateRunner';
import { parseSource } from './parser';
import { DEFAULT_BOUNDS, searchFix, type SearchBounds } from './search';

export interface RepairOptions {
  /** The options the check itself ran with; `engine` is needed (the batch and the verification come from it). */
  readonly check: CheckFileOptions & { readonly engine: string };
  /** The check's first batch, when the caller kept it (the CLI's check); otherwise the file is checked again for it. */
  readonly batch?: PassingBatch;
  readonly bounds?: Partial<SearchBounds>;
  /** How the patch names the file: its path from where the patch is applied (default: its base name). */
  readonly patchName?: string;
}

/** Problems that say a program answers wrong, in a way no mistake of the lesson names: a search can still undo it. */
const UNNAMED_KINDS = new Set(['unrecognised-difference', 'stale-state', 'crash']);

/**
 * The named mistakes and the lines each points at, with the model's answer where the program first went wrong.
 * A program with no named mistake gets its problems instead (the kind as the mistake, the line a crash names).
 */
export function repairTargets(report: CheckReport, source = ''): RepairTarget[] {
  const named = report.mistakes.map((m) => {
    const example = m.counterexample;
    const answer = example?.trace[example.divergesAt]?.expected;
    return {
      mistake: m.id,
      lines: m.location?.lines.length ? m.location.lines : m.line ? [m.line] : [],
      ...(answer?.length === 1 ? { answer: answer[0]! } : {}),
      ...(m.line ? { functionLine: m.line } : {}),
    };
  });
  if (named.length > 0 || report.status === 'pass') return [...named, ...strayTargets(report, source)];
  const example = report.counterexample;
  const answer = example?.trace[example.divergesAt]?.expected;
  return report.problems
    .filter((p) => UNNAMED_KINDS.has(p.kind))
    .map((p): RepairTarget => ({
      mistake: p.kind,
      lines: p.line ? [p.line] : [],
      ...(answer?.length === 1 ? { answer: answer[0]! } : {}),
    }))
    .concat(strayTargets(report, source));
}

/**
 * Lines that print what is not an answer: the source lines holding most words of the stray line the report quotes
 * (`e.g. "2026-… INFO balancer up, reading commands fr…"`). A fix must take them out, or the check it is verified
 * by still says so.
 */
export function strayTargets(report: CheckReport, source: string): RepairTarget[] {
  const stray = report.problems.find((p) => p.kind === 'stray-output');
  const quoted = stray && /e\.g\. "(.*?)(…[^"]*)?"/.exec(stray.message)?.[1];
  const words = new Set(quoted?.match(/[A-Za-z][A-Za-z_-]{2,}/g) ?? []);
  if (words.size < 2) return [];
  const lines = source.split('\n').flatMap((text, i) => {
    const found = [...words].filter((w) => text.includes(w)).length;
    return found >= Math.min(3, words.size) ? [i + 1] : [];
  });
  return lines.length ? [{ mistake: 'stray-output', lines: lines.slice(0, 3) }] : [];
}

/** The check's first batch (every hidden and generated transcript, and what a passing program prints). */
export async function firstBatch(
  pack: LoadedPack,
  file: string,
  language: Language,
  options: CheckFileOptions,
): Promise<{ batch?: PassingBatch; report: CheckReport }> {
  const store = new PassingBatchStore(1);
  const report = await checkFile(pack, file, language, { ...options, kept: { passingBatches: store } });
  return { ...(store.all()[0] ? { batch: store.all()[0]! } : {}), report };
}

/** The whole check of a fixed copy at one seed: verified only by a pass with nothing said against it. */
async function passesCheck(
  pack: LoadedPack,
  file: string,
  language: Language,
  options: CheckFileOptions,
  seed: number,
): Promise<CheckReport | undefined> {
  const { kept: _kept, onPhase: _phase, ...plain } = options;
  const report = await checkFile(pack, file, language, { ...plain, seed, trace: false });
  return report.status === 'pass' && report.problems.length === 0 && report.mistakes.length === 0 ? report : undefined;
}

/**
 * Verified only when the whole check passes at every seed. The seeds' checks run at once (two cores: the
 * verification takes one check's time, not two), each of them the full check in the sandbox.
 */
export async function verifiedAtSeeds(
  seeds: readonly number[],
  checkAt: (seed: number) => Promise<CheckReport | undefined>,
): Promise<Verified | undefined> {
  const checks = await Promise.all(seeds.map((seed) => checkAt(seed)));
  if (checks.length === 0 || checks.some((c) => c === undefined)) return undefined;
  const passed = checks as CheckReport[];
  return {
    hidden: passed[0]!.checks.total,
    generated: passed.reduce((sum, c) => sum + c.fuzz.transcripts, 0),
    seeds: [...seeds],
  };
}

export function unifiedPatch(name: string, before: string, after: string): string {
  return createTwoFilesPatch(name, name, before, after, undefined, undefined, { headerOptions: FILE_HEADERS_ONLY });
}

const notFound = (mistake: string, reason: string, started: number, candidates = 0): RepairResult => ({
  mistake,
  patch: null,
  reason,
  searchMs: Math.round(performance.now() - started),
  candidates,
});

export async function repairFile(
  pack: LoadedPack,
  file: string,
  language: Language,
  report: CheckReport,
  options: RepairOptions,
): Promise<RepairResult> {
  const started = performance.now();
  // The mistakes by id; a fix for a program with no named mistake is for no mistake ('').
  const mistake = report.mistakes.map((m) => m.id).join(', ');
  if (report.status === 'pass') return notFound(mistake, 'the check passed; there is nothing to fix.', started);
  const maxRung = pack.manifest.hints?.maxRung;
  if (maxRung !== undefined && maxRung < 4)
    return notFound(mistake, `this lesson shows hints up to rung ${maxRung} (hints.maxRung), not fixes.`, started);
  const absolute = path.resolve(file);
  const source = await fs.readFile(absolute, 'utf8');
  const targets = repairTargets(report, source);
  if (targets.length === 0) return notFound(mistake, 'the check found no mistake and no difference to undo.', started);
  const parsed = await parseSource(language, source);
  if (!parsed) return notFound(mistake, 'your file does not parse, so no edit of it can be tried.', started);
  const batch = options.batch ?? (await firstBatch(pack, absolute, language, options.check)).batch;
  if (!batch) return notFound(mistake, 'the check could not say what a passing run prints.', started);
  const runner = await candidateRunner(pack, absolute, language, batch, options.check);
  const seeds = [batch.fuzz.seed, (batch.fuzz.seed + 1) % 2 ** 32];
  let verified: Verified | undefined;
  // The learner's own run goes beside the first candidates': the search needs it only after them. A run that
  // fails counts every line wrong; it is awaited before its folder is removed.
  const baseline = runner.run(source).then(
    (run) => run.wrongLines,
    () => Infinity,
  );
  try {
    const verify = async (_source: string, run: { file: string }): Promise<boolean> => {
      verified = await verifiedAtSeeds(seeds, (seed) => passesCheck(pack, run.file, language, options.check, seed));
      return verified !== undefined;
    };
    const bounds = { ...DEFAULT_BOUNDS, ...options.bounds };
    const searched = await searchFix(parsed, targets, runner, baseline, verify, bounds);
    if (!searched.found || !verified) {
      const why =
        searched.stoppedBy === 'stalled'
          ? `none of the ${searched.runs} edits tried passes every test, and none brought the answers closer to a passing program's.`
          : searched.stoppedBy
            ? `none of the ${searched.runs} edits tried within the search's ${searched.stoppedBy === 'time' ? `${Math.round(bounds.timeMs / 1000)} s` : 'bound'} passes every test.`
            : `none of the ${searched.runs} small edits near the lines it found passes every test.`;
      return notFound(
        mistake,
        `${why} Rungs 1 to 3 (the question, the lines, the smallest failing transcript) still hold.`,
        started,
        searched.runs,
      );
    }
    return {
      mistake,
      patch: unifiedPatch(options.patchName ?? path.basename(absolute), source, searched.found.source),
      changedLines: editedLines(source, searched.found.candidate.edits),
      verified,
      edit: searched.found.candidate.description,
      searchMs: Math.round(performance.now() - started),
      candidates: searched.runs,
    };
  } finally {
    await baseline;
    await runner.dispose();
  }
}

async function candidateRunner(
  pack: LoadedPack,
  file: string,
  language: Language,
  batch: PassingBatch,
  options: CheckFileOptions,
): Promise<CandidateRunner> {
  const starter = pack.manifest.starters[language];
  const driver = starter?.driver ? await resolveInside(pack.dir, starter.driver) : undefined;
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  return new CandidateRunner({
    language,
    learnerFile: file,
    interpreters: { ...DEFAULT_INTERPRETERS, ...options.interpreters },
    ...(driver ? { driver } : {}),
    contain: {
      setting: options.sandbox ?? sandboxSettingFromEnv(),
      hidden: [pack.dir],
      ...(options.memoryLimitMiB !== undefined ? { memoryLimitMiB: options.memoryLimitMiB } : {}),
    },
    batch,
    timeLimitMs: timeLimitFor(batch.input, timeLimitMs),
    outputLimitBytes: options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
  });
}
