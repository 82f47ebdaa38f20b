/**
 * Which scenario to run, of either kind (a world scenario or a template one): the one asked for, else the
 * one that shows a mistake the check named, else the first.
 */

/** The scenario that shows a mistake's consequence, else the one asked for, else the first. */
export function chooseScenario<S extends { readonly id: string; readonly shows?: readonly string[] }>(
  scenarios: readonly S[],
  wanted?: string,
  mistakeIds: readonly string[] = [],
): S | undefined {
  if (wanted !== undefined) return scenarios.find((s) => s.id === wanted);
  for (const id of mistakeIds) {
    const showing = scenarios.find((s) => s.shows?.includes(id));
    if (showing) return showing;
  }
  return scenarios[0];
}

/**
 * What to run after a check: the scenario that shows the first mistake it named that a scenario shows, or,
 * for a passing program, the first scenario (how it holds up). Nothing for a check that named only mistakes
 * no scenario shows, or that could not run the program.
 */
export function scenarioAfterCheck<S extends { readonly id: string; readonly shows?: readonly string[] }>(
  scenarios: readonly S[],
  status: 'pass' | 'fail' | 'error',
  mistakeIds: readonly string[],
): { scenario: S; mistake?: string } | undefined {
  if (status === 'error' || scenarios.length === 0) return undefined;
  const mistake = mistakeIds.find((id) => scenarios.some((s) => s.shows?.includes(id)));
  if (mistake) return { scenario: chooseScenario(scenarios, undefined, [mistake])!, mistake };
  return status === 'pass' ? { scenario: scenarios[0]! } : undefined;
}
