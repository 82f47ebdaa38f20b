/**
 * What a diagnosis says: the mistakes it names (findings) and the differences it has no name for. Its own file so
 * that the diagnosis's steps (candidates, admission, cover, credit, free choices) share these types without
 * importing the orchestrator that calls them.
 */
import { stepKey, type StepRef, type UnexplainedStep } from './stepwise';

export interface MistakeMutants {
  readonly id: string;
  readonly mutants: readonly string[];
}

export interface Finding {
  readonly mistake: string;
  /** The mutation of this mistake that explains the evidence. */
  readonly mutation: string;
  /** Every mutation of the candidate it was found with (itself, or a pair), for finding a counterexample. */
  readonly mutations: readonly string[];
  readonly confidence: 'exact' | 'likely';
  /** Named through a nondeterministic mutation: the program's choice at those commands is free (e.g. random ties). */
  readonly nondeterministic: boolean;
  /** Differing commands this mistake explains (at most a few hundred kept; `stepCount` has them all). */
  readonly steps: readonly StepRef[];
  readonly stepCount: number;
}

export interface Diagnosis {
  readonly findings: readonly Finding[];
  /** Differing commands no named mistake explains, with a sentence each (evidence order). */
  readonly unexplained: readonly UnexplainedStep[];
  readonly unexplainedCount: number;
  readonly differingCount: number;
  /**
   * A finding is named only because the program looked deterministic (two fresh runs agreed): it is
   * contradicted at a command or two, which a fixed rule allows and a random choice would explain. Two runs
   * that agree are weak evidence for a program that draws at random, so the check runs it fresh a few more
   * times before it trusts the verdict.
   */
  readonly restsOnDeterminism?: boolean;
}

/** A finding let go: its steps that no kept finding explains are unexplained again (keys in `uncovered`). */
export function releaseSteps(dropped: Finding, kept: readonly Finding[], uncovered: Set<string>): void {
  const held = new Set(kept.flatMap((f) => f.steps.map(stepKey)));
  for (const step of dropped.steps) if (!held.has(stepKey(step))) uncovered.add(stepKey(step));
}
