/**
 * The checks of a pack's mistakes against its hidden transcripts: every mistake caught (some transcript tells
 * each of its mutations from the reference), every pair told apart, and a program making two of them named for
 * both. Where one fails, a transcript that would mend it is searched for and proposed (adequacy.ts).
 */
import { freshName, measureAdequacy, proposeTranscript, separates, type Adequacy } from './adequacy';
import { locate } from '../pack/manifest';
import type { ValidateLessonInput } from './lessonInput';
import type { ValidationProblem } from './problem';

/** A transcript searched for that tells apart what `differ` says, named afresh; undefined when none is found. */
type Propose = (
  differ: (c: readonly string[]) => boolean,
  name: string,
  description: string,
) => Promise<string | undefined>;

/** Where a mistake's problem is said: at the mistake in lesson.json. */
type Where = (id: string, message: string) => { file: string; line: number; column: number; message: string };

const ADD_PROPOSAL =
  "Add a transcript like the one below (found by search and shrunk; the answers are the reference's) to a transcript file.";

/** Every mistake caught, every pair told apart; proposals for the transcripts that are missing. */
export async function checkMistakes(
  input: ValidateLessonInput,
): Promise<{ problems: ValidationProblem[]; adequacy: Adequacy }> {
  const { manifest, model, transcripts, manifestText: text, manifestFile: file } = input;
  const adequacy = measureAdequacy(model, manifest.mistakes, transcripts);
  // Proposals are named apart from the hidden transcripts and from each other.
  const taken = transcripts.map((t) => t.name);
  const propose: Propose = async (differ, name, description) => {
    const proposal = await proposeTranscript(model, differ, freshName(name, taken), description, { seed: input.seed });
    if (proposal) taken.push(proposal.slice(4, proposal.search(/[:\n]/)).trim());
    return proposal;
  };
  const where: Where = (id, message) => {
    const index = manifest.mistakes.findIndex((m) => m.id === id);
    const found = locate(text, file, `/mistakes/${index}`, message);
    return { file, line: found.line, column: found.column, message };
  };
  const problems = [
    ...(await uncaughtMistakes(input, adequacy, propose, where)),
    ...(await mistakesNotToldApart(input, adequacy, propose, where)),
  ];
  return { problems, adequacy };
}

/** A mistake some of whose mutations no hidden transcript catches: an error when none is caught at all. */
async function uncaughtMistakes(
  { model }: ValidateLessonInput,
  adequacy: Adequacy,
  propose: Propose,
  where: Where,
): Promise<ValidationProblem[]> {
  const problems: ValidationProblem[] = [];
  for (const coverage of adequacy.mistakes) {
    const uncaught = coverage.mutations.filter((m) => m.caughtBy.length === 0);
    if (uncaught.length === 0) continue;
    const whole = uncaught.length === coverage.mutations.length;
    const mutation = uncaught[0]!.mutation;
    const proposal = await propose(
      separates(model, [mutation], []),
      `catches-${coverage.mistake}`,
      `catches ${coverage.mistake} (${mutation})`,
    );
    problems.push({
      severity: whole ? 'error' : 'warning',
      area: 'mistakes',
      ...where(
        coverage.mistake,
        whole
          ? `mistake "${coverage.mistake}" is never caught: no hidden transcript tells ${uncaught.map((u) => u.mutation).join(', ')} from the reference, so a learner making it passes every hidden check`
          : `mistake "${coverage.mistake}": mutation ${uncaught.map((u) => u.mutation).join(', ')} is never caught by a hidden transcript (the others are)`,
      ),
      advice: proposal
        ? ADD_PROPOSAL
        : `No generated transcript catches ${mutation}: it may behave exactly like the reference. Remove it from "mutants", or write a transcript by hand.`,
      ...(proposal ? { proposal } : {}),
    });
  }
  return problems;
}

/**
 * Two mistakes every hidden transcript answers alike (an error), or that together look like a third (a warning,
 * only where a transcript could tell them).
 */
async function mistakesNotToldApart(
  { model }: ValidateLessonInput,
  adequacy: Adequacy,
  propose: Propose,
  where: Where,
): Promise<ValidationProblem[]> {
  const problems: ValidationProblem[] = [];
  for (const pair of adequacy.pairs) {
    const [a, b] = pair.mistakes;
    if (pair.unseparated) {
      const [ma, mb] = pair.unseparated;
      const proposal = await propose(
        separates(model, [ma], [mb]),
        `tells-${a}-from-${b}`,
        `tells ${a} (${ma}) from ${b} (${mb})`,
      );
      problems.push({
        severity: 'error',
        area: 'mistakes',
        ...where(
          b,
          `mistakes "${a}" and "${b}" cannot be told apart: ${ma} and ${mb} answer every hidden transcript the same way, so a learner making one is told about both`,
        ),
        advice: proposal
          ? ADD_PROPOSAL
          : `No generated transcript separates ${ma} from ${mb}: they may be the same mistake. Merge the two mistakes, or write a separating transcript by hand.`,
        ...(proposal ? { proposal } : {}),
      });
    } else if (pair.masked) {
      // No transcript separates a combination when the model makes the two mutations alternatives
      // (one overrides the other); no transcript can help there, so only fixable ones are reported.
      for (const { both, looksLike } of pair.masked) {
        const [ma, mb] = both;
        const proposal = await propose(
          separates(model, [ma, mb], [looksLike]),
          `tells-${a}-and-${b}`,
          `tells ${a} and ${b} together from ${looksLike} alone`,
        );
        if (!proposal) continue;
        problems.push({
          severity: 'warning',
          area: 'mistakes',
          ...where(
            b,
            `a program making both "${a}" (${ma}) and "${b}" (${mb}) answers every hidden transcript like one making only ${looksLike}, so only one of the two is named until it is fixed`,
          ),
          advice: 'To name both at once, add a transcript like the one below.',
          proposal,
        });
        break;
      }
    }
  }
  return problems;
}
