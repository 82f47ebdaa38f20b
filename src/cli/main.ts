/** `lesson-companion`: the command line, and what autograders call (dist/cli-main.js: every command). */
import type { CliCommand, CliIO } from './command';
import { dispatch, startCli, warmWithLessons, type CommandTable } from './dispatch';

export { exitWhenSettled } from './dispatch';

/* eslint-disable @typescript-eslint/no-require-imports -- each command's module is loaded when that command
   runs, so `lessons` does not pay for what `check` or `install` load (child processes, zip, the engine) */
const LAZY: CommandTable = {
  check: () => (require('./checkCommand') as typeof import('./checkCommand')).checkCommand,
  simulate: () => (require('./simulateCommand') as typeof import('./simulateCommand')).simulateCommand,
  lessons: () => (require('./lessonsCommand') as typeof import('./lessonsCommand')).lessonsCommand,
  run: () => (require('./runCommand') as typeof import('./runCommand')).runCommand,
  answer: () => (require('./answerCommand') as typeof import('./answerCommand')).answerCommand,
  'author-answers': () => (require('./authorCommand') as typeof import('./authorCommand')).authorCommand,
  validate: () => (require('./validateCommand') as typeof import('./validateCommand')).validateCommand,
  bundle: () => (require('./bundleCommand') as typeof import('./bundleCommand')).bundleCommand,
  install: () => (require('./installCommand') as typeof import('./installCommand')).installCommand,
  new: () => (require('./newCommand') as typeof import('./newCommand')).newCommand,
  types: () => (require('./typesCommand') as typeof import('./typesCommand')).typesCommand,
  grade: () => (require('./gradeCommand') as typeof import('./gradeCommand')).gradeCommand,
  classroom: () => (require('./classroomCommand') as typeof import('./classroomCommand')).classroomCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Commands added at run time (tests); the built-in ones load from LAZY. */
export const COMMANDS: CliCommand[] = [];

export function main(argv: string[], io: CliIO): Promise<number> {
  return dispatch(argv, io, LAZY, COMMANDS);
}

/** Entry point of bin/lesson-companion.js, and of `node dist/cli.js` for every command but `lessons`. */
export function runCli(): void {
  startCli(main);
}

/** The build's warm-up (dispatch.ts): `lessons`, and the modules `check` loads, compiled into the code cache. */
export async function warmForCodeCache(): Promise<void> {
  await warmWithLessons(LAZY);
  LAZY.check!();
}

if (require.main === module) runCli();
