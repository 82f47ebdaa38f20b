/**
 * A program driven line by line, apart from the worlds that drive it: the process runner needs these two,
 * and loading a world (its scenario schema) for them would cost every check's start.
 */

/** A program that cannot go on: it crashed, stopped answering, or answered something unusable. */
export class ProgramStopped extends Error {
  constructor(
    message: string,
    /** What the program said on stderr (a traceback), made safe to show. */
    readonly details?: string,
  ) {
    super(message);
    this.name = 'ProgramStopped';
  }
}

/** A program that answers one line per command line: a learner's process, or a model stepped in memory. */
export interface LineSession {
  /**
   * Writes the commands in order and resolves with the answer line to each. Rejects with ProgramStopped
   * when the program cannot answer them all (it crashed, hung, or printed too much).
   */
  exchange(commands: readonly string[]): Promise<readonly string[]>;
}
