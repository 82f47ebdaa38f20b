/**
 * Read-order `pattern`s are regular expressions from the pack, run on the learner's document. A pattern
 * like `(a+)+$` takes exponential time on a line of a's that does not match, which would hang validate,
 * bundle and (before matching moved off its thread) the extension host. Such patterns are refused where
 * the pack is read.
 *
 * The analysis is scslre's (the ReDoS analyser behind eslint-plugin-regexp's no-super-linear-backtracking;
 * pure JavaScript, so the VSIX stays platform-neutral). It finds the nested and adjacent quantifiers that
 * trade characters, in well under a millisecond per pattern. It cannot prove every pattern fast (it misses
 * ambiguous alternatives such as `(a|a)*$`), so matching in the editor is also bounded in time and length
 * (src/node/packs/patternMatch.ts).
 */
type Scslre = typeof import('scslre');
let scslre: Scslre | undefined;

/** The flags read-order patterns run with, here and in the editor. */
export const PATTERN_FLAGS = 'm';

export type PatternVerdict =
  | { readonly ok: true; readonly regex: RegExp; readonly polynomial?: string }
  | { readonly ok: false; readonly reason: 'invalid' | 'exponential'; readonly message: string };

/**
 * Whether `pattern` compiles and can be run on a learner's text without exponential backtracking.
 * `polynomial` names a character whose repetition makes the match slower than linear (a warning).
 */
export function checkPattern(pattern: string): PatternVerdict {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, PATTERN_FLAGS);
  } catch (error) {
    return {
      ok: false,
      reason: 'invalid',
      message: `"pattern" is not a valid regular expression (${(error as Error).message})`,
    };
  }
  let reports: ReturnType<Scslre['analyse']>['reports'];
  try {
    // "Move" reports describe every unanchored search (O(n²) at worst), which is all of them: not a finding.
    // Loaded on first use: its automata library builds Unicode tables when loaded (~0.1 s), which commands
    // that read no pattern should not pay.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    scslre ??= require('scslre') as Scslre;
    reports = scslre.analyse({ source: pattern, flags: PATTERN_FLAGS }, { reportTypes: { Move: false } }).reports;
  } catch (error) {
    // regexpp is stricter than V8 in a few corners (e.g. lone brackets); V8 compiled it, so say so plainly.
    return {
      ok: false,
      reason: 'invalid',
      message: `"pattern" cannot be analysed for speed (${(error as Error).message}); write it in plainer JavaScript regular-expression syntax`,
    };
  }
  const exponential = reports.find((r) => r.exponential);
  if (exponential) {
    const repeated = JSON.stringify(exponential.character.pick.repeat(3));
    return {
      ok: false,
      reason: 'exponential',
      message:
        `"pattern" /${pattern}/ can take exponential time: on a line like ${repeated}… that does not match, its nested repetition tries every way to split the text, ` +
        'which would freeze the learner\'s editor. Remove the nesting (e.g. "(a+)+" → "a+") or name a "symbol" instead',
    };
  }
  const polynomial = reports[0];
  return polynomial ? { ok: true, regex, polynomial: polynomial.character.pick } : { ok: true, regex };
}
