/**
 * The sentence above a world scenario's chart, as a template the pack writes. Every number in it comes from a
 * placeholder that reads a drawn series, so the sentence cannot state a figure the chart beside it does not
 * show (a literal digit outside a placeholder is refused at validate):
 *
 * - `{<who>.<stat>.<measure>}` for a measure drawn as a total (summed over lanes, when it has lanes);
 * - `{<who>.<stat>.<measure>.<lane>}` for one lane of a measure drawn per lane; `worst` for the lane where
 *   the learner's program let the measure peak highest (the first such lane in lane order);
 * - `{worst.<measure>}`: the name of that lane.
 *
 * `who` is `yours`, `reference` or `baseline.<id>`; `stat` is `peak` (the largest value of any tick), `final`
 * (the last tick's) or `total` (the sum over the ticks).
 */
import type { SeriesSpec } from './worldScenarioSchema';

export type Who =
  { readonly kind: 'yours' } | { readonly kind: 'reference' } | { readonly kind: 'baseline'; readonly id: string };
export type Stat = 'peak' | 'final' | 'total';

export type Placeholder =
  | {
      readonly kind: 'number';
      readonly who: Who;
      readonly stat: Stat;
      readonly measure: string;
      readonly lane?: string;
    }
  | { readonly kind: 'worst'; readonly measure: string };

const PLACEHOLDER = /\{([^{}]*)\}/g;
const STATS: readonly Stat[] = ['peak', 'final', 'total'];

/** Reads one placeholder's text, or says what is wrong with it. */
export function parsePlaceholder(
  text: string,
  series: readonly SeriesSpec[],
  baselines: readonly string[],
): Placeholder | { error: string } {
  const parts = text.split('.');
  const drawn = (measure: string, per: 'lane' | 'total'): boolean =>
    series.some((s) => s.measure === measure && s.per === per);
  if (parts[0] === 'worst') {
    if (parts.length !== 2) return { error: `{${text}}: write {worst.<measure>}` };
    if (!drawn(parts[1]!, 'lane'))
      return { error: `{${text}}: "${parts[1]}" is not a measure this scenario draws per lane` };
    return { kind: 'worst', measure: parts[1]! };
  }
  let who: Who;
  let rest: string[];
  if (parts[0] === 'yours' || parts[0] === 'reference') {
    who = { kind: parts[0] };
    rest = parts.slice(1);
  } else if (parts[0] === 'baseline') {
    const id = parts[1] ?? '';
    if (!baselines.includes(id))
      return {
        error: `{${text}}: "${id}" is not one of this scenario's baselines (${baselines.join(', ') || 'none'})`,
      };
    who = { kind: 'baseline', id };
    rest = parts.slice(2);
  } else return { error: `{${text}}: a placeholder starts with yours, reference, baseline.<id> or worst` };
  const [stat, measure, lane, ...extra] = rest;
  if (!STATS.includes(stat as Stat)) return { error: `{${text}}: "${stat ?? ''}" is not peak, final or total` };
  if (measure === undefined || extra.length > 0)
    return { error: `{${text}}: write {${parts[0]}….${stat}.<measure>} or {….${stat}.<measure>.<lane>}` };
  if (lane === undefined) {
    if (!drawn(measure, 'total'))
      return {
        error: `{${text}}: "${measure}" is not drawn as a total in this scenario's series, so the chart would not show this number`,
      };
    return { kind: 'number', who, stat: stat as Stat, measure };
  }
  if (!drawn(measure, 'lane'))
    return {
      error: `{${text}}: "${measure}" is not drawn per lane in this scenario's series, so the chart would not show this number`,
    };
  return { kind: 'number', who, stat: stat as Stat, measure, lane };
}

/** Every problem of a sentence template: placeholders it cannot fill, and numbers written out (not measured). */
export function sentenceProblems(
  template: string,
  series: readonly SeriesSpec[],
  baselines: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const parsed = parsePlaceholder(match[1]!, series, baselines);
    if ('error' in parsed) problems.push(parsed.error);
  }
  const outside = template.replace(PLACEHOLDER, '');
  if (/[{}]/.test(outside)) problems.push('a brace is not closed: placeholders are written {like.this}');
  const digit = /\d+/.exec(outside);
  if (digit)
    problems.push(
      `"${digit[0]}" is written out: every number in the sentence must be measured, so write it as a placeholder (e.g. {yours.peak.<measure>})`,
    );
  return problems;
}

/** The template with each placeholder filled by `value` (called only for placeholders that parse). */
export function fillSentence(
  template: string,
  series: readonly SeriesSpec[],
  baselines: readonly string[],
  value: (p: Placeholder) => string,
): string {
  return template.replace(PLACEHOLDER, (whole, text: string) => {
    const parsed = parsePlaceholder(text, series, baselines);
    return 'error' in parsed ? whole : value(parsed);
  });
}
