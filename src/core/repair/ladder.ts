/**
 * The hint ladder for one named mistake: 1 the failure question and the lesson's step, 2 where (the lines),
 * 3 the smallest transcript that shows it, with its replay, 4 a verified fix to the learner's own file.
 * Rung 4 is offered only once the learner has seen rung 3 for the same mistake in an earlier check (so the
 * fix never comes before they have tried), never above the pack's `hints.maxRung`, and never in grading
 * (`grade` and Classroom runs do not ask for it at all).
 */
import type { CheckReport, NamedMistake } from '../report/report';

export type Rung = 1 | 2 | 3 | 4;

/** The highest rung a check's card shows for a mistake by itself (rung 4 is asked for). */
export function cardRung(mistake: NamedMistake): Rung {
  if (mistake.counterexample) return 3;
  if (mistake.location?.lines.length || mistake.line) return 2;
  return 1;
}

/** The mistakes of this report whose rung 3 (a smallest transcript) the learner is shown. */
export function rungThreeSeen(report: CheckReport): string[] {
  return report.mistakes.filter((m) => cardRung(m) === 3).map((m) => m.id);
}

/** The mistakes of this report a fix may be offered for: seen at rung 3 in an earlier check, within the cap. */
export function fixOffered(
  report: CheckReport,
  seenBefore: ReadonlySet<string>,
  maxRung: number | undefined,
): string[] {
  if (report.status === 'pass' || (maxRung !== undefined && maxRung < 4)) return [];
  return report.mistakes.filter((m) => seenBefore.has(m.id)).map((m) => m.id);
}
