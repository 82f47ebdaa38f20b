/**
 * Failures the user can do something about, in words. Node's file errors say `EACCES: permission denied,
 * mkdir '/x/y'`; a person needs what was being done, to which path, why, and what to do next.
 */

/** An expected failure whose message is complete: what happened and what to do. Shown as it is. */
export class WordedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WordedError';
  }
}

const WHY: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the disk is read-only',
  ENOENT: 'it does not exist',
  ENOTDIR: 'part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'it already exists',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'it is a loop of symbolic links',
  EMFILE: 'too many files are open',
};

/** The file-system error's reason in words ("permission denied"), or undefined for anything else. */
export function fsReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? WHY[code] : undefined;
}

/**
 * A WordedError for a failed file operation: `cannot <doing> <path>: <why>. <advice>`. Errors that are not
 * file-system errors are returned unchanged: they are bugs, and the caller's `--debug` shows them.
 */
export function fsError(error: unknown, doing: string, target: string, advice = ''): Error {
  const why = fsReason(error);
  if (!why) return error instanceof Error ? error : new Error(String(error));
  return new WordedError(`cannot ${doing} ${target}: ${why}.${advice ? ` ${advice}` : ''}`);
}
