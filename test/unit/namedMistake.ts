/**
 * A named mistake as a check report carries it, for the report-layer tests (findings, progress): the tiebreak
 * at `pick` line 12, exact, with no evidence, unless `overrides` say otherwise. Built when called, so a test
 * that calls it inside `it` gets the mutation-coverage credit.
 */
import type { NamedMistake } from '../../src/core/report/report';

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
