/**
 * A balancer driven line by line, apart from the simulation that drives it: the process runner needs these
 * two, and loading the simulation (its scenario schema) for them would cost every check's start.
 */

/** A balancer that cannot go on: its program crashed, stopped answering, or answered something unusable. */
export class BalancerStopped extends Error {
  constructor(
    message: string,
    /** What the program said on stderr (a traceback), made safe to show. */
    readonly details?: string,
  ) {
    super(message);
    this.name = 'BalancerStopped';
  }
}

/** A program that answers one line per command line: a learner's process, or a model stepped in memory. */
export interface LineSession {
  /**
   * Writes the commands in order and resolves with the answer line to each. Rejects with BalancerStopped
   * when the program cannot answer them all (it crashed, hung, or printed too much).
   */
  exchange(commands: readonly string[]): Promise<readonly string[]>;
}
