/**
 * A named mistake as a check report carries it, for the report-layer tests (findings, progress): the tiebreak
 * at `pick` line 12, exact, with no evidence, unless `overrides` say otherwise. Built when called, so a test
 * that calls it inside `it` gets the mutation-coverage credit.
 */
import type { Counterexample, NamedMistake } from '../../src/core/report/report';

export function namedMistake(overrides: Partial<NamedMistake> = {}): NamedMistake {
  return {
    id: 'ties-last',
    title: 'Ties go to the last backend',
    function: 'pick',
    line: 12,
    confidence: 'exact',
    explanation: 'On a tie the program picks the last one.',
    hint: 'Keep the first of equal counts',
    mutants: ['ties-last'],
    evidence: { steps: 0, transcripts: 0, first: null },
    revealedBy: [],
    counterexample: null,
    ...overrides,
  };
}

/**
 * A counterexample of `commands` (every answer "x", the last one wrong), from `transcript`, shrunk from
 * `shrunkFrom` commands: the table a card's "command N (X)" points into.
 */
export function tableOf(
  commands: readonly string[],
  transcript = 'ties-pool',
  shrunkFrom = commands.length,
): Counterexample {
  const last = commands.length - 1;
  return {
    transcript,
    label: transcript.replace(/-/g, ' '),
    commands,
    expected: commands.map(() => 'x'),
    actual: commands.map((_, i) => (i === last ? 'y' : 'x')),
    divergesAt: last,
    trace: commands.map((command, i) => ({
      command,
      expected: ['x'],
      actual: [i === last ? 'y' : 'x'],
      counts: {},
      matches: i !== last,
    })),
    shrunkFrom,
    reproduced: true,
  };
}
