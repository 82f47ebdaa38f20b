/**
 * dist/cli-lessons.js: the command line with `lessons` alone, which the launcher starts for that command (a
 * quarter of dist/cli-main.js's code: a start pays to read, and V8 to take, all the code it is given, about
 * 6 ms of a listing whose own work is 20). Every other command, and `lessons` typed after an option, starts
 * from dist/cli-main.js, which lists the same.
 */
import { dispatch, startCli, warmWithLessons, type CommandTable } from './dispatch';
import { lessonsCommand } from './lessonsCommand';

const LESSONS_ONLY: CommandTable = { lessons: () => lessonsCommand };

export function runCli(): void {
  startCli((argv, io) => dispatch(argv, io, LESSONS_ONLY));
}

export async function warmForCodeCache(): Promise<void> {
  await warmWithLessons(LESSONS_ONLY);
}
