/** The shell line a learner pastes to replay a transcript with their own prints. */
import * as path from 'node:path';
import type { Language } from '../../core/pack/schema';
import type { Interpreters } from '../languages/languages';

/** A POSIX shell word: single-quoted unless it is plain. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * How the replay line names the lesson for `lesson-companion run --lesson`: a pack the check was given as a
 * folder by that folder (absolute, since the line runs from the learner file's folder: its id would not be
 * found there), a built-in or installed one by its id.
 */
export function replayLesson(pack: {
  readonly dir: string;
  readonly origin: string;
  readonly manifest: { readonly id: string };
}): string {
  return pack.origin === 'folder' ? path.resolve(pack.dir) : pack.manifest.id;
}

/**
 * One shell line a learner can paste in the learner file's folder to replay a transcript with their own
 * prints: the commands through printf, piped into the program as the check ran it (through the lesson's
 * driver, if any; TypeScript through `lesson-companion run`).
 */
export function replayLine(
  stdin: string,
  language: Language,
  learnerFile: string,
  lesson: string,
  interpreters: Pick<Interpreters, 'python' | 'node'>,
  driver: string | undefined,
): string {
  const commands = stdin.split('\n').filter((line) => line !== '');
  const feed = `printf '%s\\n' ${commands.map(shellWord).join(' ')}`;
  const file = shellWord(path.basename(learnerFile));
  let program: string;
  if (language === 'typescript') program = `npx lesson-companion run ${file} --lesson ${shellWord(lesson)}`;
  else {
    // The interpreter the check used: a chosen one (a virtual environment's python) by its path, the
    // default by its name; the Node that runs this engine is just `node` to the learner.
    const chosen = language === 'python' ? interpreters.python : interpreters.node;
    const interpreter =
      language === 'javascript' && chosen === process.execPath
        ? 'node'
        : chosen.includes(path.sep)
          ? shellWord(chosen)
          : chosen;
    program = [interpreter, ...(driver ? [shellWord(driver)] : []), file].join(' ');
  }
  return `${feed} | ${program}`;
}
