/**
 * What a sandboxed learner program sees, whichever tool builds the sandbox: the system read-only, the
 * interpreter and the learner's project read-only (an allowlist: never the home folder or `/` whole, see
 * privateFolders.ts), a pack's driver file alone, a private /tmp; inside what is bound, the pack, Lesson
 * Companion's own folders and VS Code's are covered by empty folders.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What a contained run needs to see, besides the system. */
export interface SandboxView {
  /** Folders and files bound read-only at their own paths (the learner's folder, the interpreter's prefix). */
  readonly readOnly: readonly string[];
  /** Pack files shown under SANDBOX_PACK_FILES: host path → path inside. */
  readonly packFiles: ReadonlyMap<string, string>;
  /** Folders the program must not see even where a read-only folder holds them (the pack, inside a learner's folder). */
  readonly hidden: readonly string[];
}

/** The user the learner's program runs as inside the sandbox: nobody, without capabilities. */
export const SANDBOX_UID = 65534;
/** Where a pack's driver file appears inside the sandbox: that one file, not the pack's folder. */
export const SANDBOX_PACK_FILES = '/lesson';
/** The private working folder (and HOME) inside the sandbox, and its size. */
export const SANDBOX_WORK_DIR = '/tmp';
export const WORK_DIR_BYTES = 64 * 1024 * 1024;

/** Parts of /etc that interpreters read: the dynamic linker's cache, time zone, user names. Nothing else. */
export const ETC_FILES = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/alternatives',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
];
const TOP_LEVEL_SYSTEM = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** Device files a program may open; /dev holds nothing else inside. */
export const DEVICES = ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom'];

export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Paths not already visible through /usr, that exist, without duplicates or paths inside others. */
export function extraBinds(paths: readonly string[]): string[] {
  const wanted = [...new Set(paths.map((p) => path.resolve(p)))].filter(
    (p) => p !== '/usr' && !isInside(p, '/usr') && fs.existsSync(p),
  );
  return wanted.filter((p) => !wanted.some((other) => other !== p && isInside(p, other))).sort();
}

/**
 * Hidden folders that a bound folder or the system would show: these get an empty read-only folder over them. Only
 * folders that exist (a mount point cannot be made in a read-only bind), and none inside another (it is
 * already covered, and its mount point is gone).
 */
export function hiddenInside(view: SandboxView, binds: readonly string[]): string[] {
  // /usr and the top-level system folders are shown whole: a global npm package lives there (privateFolders.ts).
  const roots = [...binds, '/usr', ...topLevelSystem().folders];
  const shown = [...new Set(view.hidden.map((h) => path.resolve(h)))].filter(
    (h) => roots.some((root) => isInside(h, root)) && fs.statSync(h, { throwIfNoEntry: false })?.isDirectory(),
  );
  return shown.filter((h) => !shown.some((other) => isInside(h, other))).sort();
}

/** The top-level system folders: on a merged-/usr system links into /usr, else folders to bind. */
export function topLevelSystem(): { links: [target: string, at: string][]; folders: string[] } {
  const links: [string, string][] = [];
  const folders: string[] = [];
  for (const dir of TOP_LEVEL_SYSTEM) {
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) links.push([fs.readlinkSync(dir), dir]);
    else if (stat?.isDirectory()) folders.push(dir);
  }
  return { links, folders };
}

/** `args` with each pack file's host path replaced by its path inside the sandbox. */
export function insideArgs(packFiles: SandboxView['packFiles'], args: readonly string[]): string[] {
  return args.map((arg) => packFiles.get(arg) ?? arg);
}

/** Host path → SANDBOX_PACK_FILES/<name>, for the pack files a program runs (its driver). */
export function packFilesView(files: readonly string[]): Map<string, string> {
  return new Map(files.map((file) => [file, path.posix.join(SANDBOX_PACK_FILES, path.basename(file))]));
}
