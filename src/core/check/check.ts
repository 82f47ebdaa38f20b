/**
 * One check of a learner program, in phases:
 *   run        every hidden and generated transcript through as few processes as possible (batch.ts);
 *   diagnose   every process's commands and answers, step by step, against the reference and its mutants (diagnose.ts);
 *   probe      one failing transcript again, alone and twice, to tell randomness and carried-over state (probe.ts),
 *              and the diagnosis again with what it saw;
 *   confirm    the smallest transcript that shows each finding, run for real in a fresh process (confirm.ts);
 *   locate     the lines of the learner's file that ran when it went wrong (the Node layer's `locate`).
 * A phase that settles the verdict hands back the report instead of the next phase's state. Pure: processes come
 * in as `execute`, tracing as `locate`.
 */
import { mapLimit } from './cases';
import type { CheckInput } from './checkInput';
import { countRuns, enterPhase, isFinished, openSession, reportOf, type CheckSession } from './checkSession';
import { confirmPhase, firstTriesToRunAhead, type Confirmed } from './confirmPhase';
import { crashLocation } from './crashLocation';
import { randomLocation } from './randomLocation';
import { hasComparison, locateAttempts, type LocateAttempt } from './locateAttempts';
import { diagnosePhase, probePhase } from './probePhase';
import { runPhase } from './runPhase';
import type { Diagnosis } from '../diagnosis/diagnose';
import { assembleProblems, stoppedProblem } from '../report/checkProblems';
import { addContradiction } from '../report/contradiction';
import { runProblems } from '../report/problems';
import type { CheckReport, Location, NamedMistake } from '../report/report';
import { enclosingFunction, locateFunction } from '../text/source';

export { defaultSeed } from './cases';
export type { CheckInput, CheckOptions, CheckPhase, PassingBatch } from './checkInput';
export type { LocateAttempt } from './locateAttempts';
export type { Diagnosis };

export async function check(input: CheckInput): Promise<CheckReport> {
  const session = openSession(input);
  const ran = await runPhase(session);
  if (isFinished(ran)) return ran.finished;
  const probed = await probePhase(session, diagnosePhase(session, ran), (draft) =>
    firstTriesToRunAhead(session, draft),
  );
  if (isFinished(probed)) return probed.finished;
  const confirmed = await confirmPhase(session, probed);
  const mistakes = await locatePhase(session, confirmed);
  return failReport(session, confirmed, mistakes);
}

/** Each named mistake with the lines of the learner's file that ran when it went wrong, where tracing finds them. */
async function locatePhase(s: CheckSession, c: Confirmed): Promise<readonly NamedMistake[]> {
  const { input } = s;
  if (!input.locate) return c.mistakes;
  enterPhase(s, 'locate');
  const crashes = {
    model: input.model,
    streams: c.streams,
    runs: c.ran.main.runs,
    cases: s.cases,
    language: input.language,
    fileName: input.fileName,
    source: input.source,
  };
  return mapLimit(c.mistakes, s.concurrency, async (mistake, i) => {
    // A crash's traceback already names the line: no run is needed to find it.
    const crashed = crashLocation(crashes, c.diagnosis.findings[i]);
    if (crashed) return { ...mistake, location: crashed };
    // A choice that differs between fresh runs is made where the program draws: tracing cannot show that line.
    const drawn =
      mistake.behaviour === 'random' ? randomLocation(input.source, input.language, mistake.function) : undefined;
    if (drawn) return { ...mistake, location: drawn };
    // Once per attempt for a program the probe has seen on fresh runs. One that answers the same on each answers a
    // traced run otherwise every time (an attempt from a batch, where a carried cursor stood elsewhere:
    // rotating_cursor spent 4 runs on one); one that draws at random, by chance only (up to 4 tries each cost
    // grpc_least_request.py 8 runs that found nothing; the next attempt did).
    const once = c.probe && c.probe.determinism.fresh !== 'unknown' ? { tries: 1 } : {};
    const attempts = locateAttempts(
      input.model,
      mistake.counterexample,
      c.diagnosis.findings[i],
      c.streams,
      s.cases,
    ).map((a) => ({ ...a, ...once }));
    if (attempts.length === 0) return mistake;
    // The probe saw the program answer a transcript after others as it does alone, and the same on fresh runs:
    // one traced run of every attempt, one after another, answers as each would alone.
    const alongside = c.probe?.determinism.fresh === 'same' && c.probe.determinism.afterReset === 'same';
    if (alongside && attempts.length > 1) {
      const found = await input.locate!(attempts.map((a, k) => (k > 0 ? { ...a, alongside: true } : a))).catch(() => ({
        location: undefined,
        attempt: undefined,
        runs: 1,
      }));
      countRuns(s, found.runs);
      const attempt = attempts[found.attempt ?? 0]!;
      return found.location ? locatedAt(input, mistake, attempt, found.location) : mistake;
    }
    // One attempt at a time, so the location knows which run its reason is about. Lines that ran only where
    // the program went wrong win over a later attempt's; lines that tell nothing apart are kept in case no
    // attempt does better.
    let fallback: NamedMistake | undefined;
    for (const attempt of attempts) {
      // A run with nothing to compare with can only give the lines of that command: not needed once some are known.
      if (fallback && !hasComparison(attempt)) continue;
      const { location, runs } = await input.locate!([attempt]).catch(() => ({ location: undefined, runs: 1 }));
      countRuns(s, runs);
      if (!location) continue;
      const located = locatedAt(input, mistake, attempt, location);
      if (location.telling !== false) return located;
      fallback ??= located;
    }
    return fallback ?? mistake;
  });
}

/** The mistake with where its attempt's traced run says it is. */
function locatedAt(input: CheckInput, mistake: NamedMistake, attempt: LocateAttempt, location: Location): NamedMistake {
  const inFunction = (l: number): string | null => enclosingFunction(input.source, input.language, l);
  const fn = location.function ?? (location.lines[0] ? inFunction(location.lines[0]) : null);
  // Lines that tell nothing apart are kept to the first one's function, without its own header line (a
  // squiggle, a lens or a breakpoint on `def pick` says nothing): the command loop's branch is not it.
  const header = fn ? locateFunction(input.source, input.language, fn) : null;
  const lines =
    location.telling === false && fn
      ? location.lines.filter((l) => l !== header && inFunction(l) === fn)
      : location.lines;
  return {
    ...mistake,
    location: { ...location, lines, function: fn, ...(attempt.origin ? { at: attempt.origin } : {}) },
  };
}

/** The report of a program that failed past the first run: its mistakes, then every problem the runs showed. */
function failReport(s: CheckSession, c: Confirmed, mistakes: readonly NamedMistake[]): CheckReport {
  const { model, manifest } = s.input;
  const { outcomes } = c.ran;
  const problems = assembleProblems({
    model,
    main: c.ran.main,
    runProblems: (r) => runProblems(r, s.problemContext),
    findings: c.diagnosis.findings,
    diagnosis: c.diagnosis,
    probe: c.probe,
    cases: s.cases,
    counterexample: c.counterexample,
  });
  const unnamed = c.contradicted[0];
  if (unnamed?.kind === 'dropped')
    addContradiction(problems, manifest, unnamed.finding.mistake, unnamed.shown, unnamed.example === c.counterexample);
  if (c.stoppedCase !== undefined) {
    const stopped = stoppedProblem(model, s.cases[c.stoppedCase]!, outcomes[c.stoppedCase]!, problems);
    if (stopped)
      problems.splice(
        problems.findIndex((p) => p.kind === stopped.kind),
        1,
        stopped,
      );
  }
  return reportOf(s, c.ran, {
    status: 'fail',
    mistakes: [...mistakes],
    counterexample: c.counterexample,
    problems,
    ...(c.probe ? { determinism: c.probe.determinism } : {}),
  });
}
