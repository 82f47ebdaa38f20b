/**
 * The words for what the evidence layer (src/core/diagnosis/evidence.ts) decided: what a mistake's card
 * states, and the difference said in place of a finding the program's own answers contradict.
 */
import type { LessonManifest } from '../pack/schema';
import type { Problem } from './report';

/** What a mistake's card says in the given form: its stated counts must be in the trace it shows. */
export function cardText(manifest: LessonManifest, id: string, mutation: string): string {
  const spec = manifest.mistakes.find((m) => m.id === id);
  const variant = spec?.variants?.find((v) => v.mutant === mutation);
  return [variant?.title ?? spec?.title, variant?.explanation ?? spec?.explanation, variant?.hint ?? spec?.hint]
    .filter(Boolean)
    .join(' ');
}

/**
 * A finding the program's own answers contradict is not named; what they show is said as a difference the
 * lesson has no name for, with the read-order step of the code it is in.
 */
export function addContradiction(
  problems: Problem[],
  manifest: LessonManifest,
  mistake: string,
  shown: string,
  inTrace: boolean,
): void {
  const stepNumber = manifest.mistakes.find((m) => m.id === mistake)?.step;
  const step = stepNumber ? manifest.readOrder[stepNumber - 1] : undefined;
  // The table's place depends on the surface (above the cards in the CLI, beside them in the panel): never "below".
  const where = inTrace ? ' (in the failing transcript shown)' : '';
  const sentence = `${shown}${where}, and no mistake this lesson names explains that.`;
  const advice = `Walk through the trace by hand, keeping the counts on paper${step ? `, and read step ${stepNumber} of the read order again (${step.title})` : ''}.`;
  const existing = problems.findIndex((p) => p.kind === 'unrecognised-difference');
  if (existing >= 0) {
    const p = problems[existing]!;
    problems.splice(existing, 1, { ...p, message: `${p.message} Also: ${sentence}` });
    return;
  }
  problems.push({
    kind: 'unrecognised-difference',
    message: `Your program differs from the reference in a way this lesson has no name for: ${sentence}`,
    advice,
  });
}
