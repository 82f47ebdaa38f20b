/** What the schema cannot say about a world scenario: its series drawn once each, a sentence it can fill, mistakes that exist. */
/** Reports a problem at a JSON pointer into lesson.json. */
export type ProblemAt = (pointer: string, message: string) => void;
import { sentenceProblems } from './sentence';
import type { WorldScenario } from './worldScenarioSchema';

export function checkWorldScenario(
  scenario: WorldScenario,
  at: string,
  mistakeIds: ReadonlySet<string>,
  problem: ProblemAt,
): void {
  const drawn = new Set<string>();
  scenario.series.forEach((s, i) => {
    const key = `${s.measure}/${s.per}`;
    if (drawn.has(key))
      problem(
        `${at}/series/${i}`,
        `"${s.measure}" is drawn ${s.per === 'lane' ? 'per lane' : 'as a total'} twice; draw each once`,
      );
    drawn.add(key);
  });
  for (const message of sentenceProblems(scenario.sentence, scenario.series, scenario.baselines ?? []))
    problem(`${at}/sentence`, message);
  scenario.shows?.forEach((id, i) => {
    if (!mistakeIds.has(id))
      problem(`${at}/shows/${i}`, `"${id}" is not a mistake of this lesson (mistakes: ${[...mistakeIds].join(', ')})`);
  });
}
