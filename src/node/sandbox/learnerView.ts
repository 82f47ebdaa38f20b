/**
 * What a sandbox shows of the learner's work (issues 28 and 29): the learner's own sources, by allowlist,
 * each file bound alone at its real path. Never a folder of the learner's: a folder may be shared (a flat
 * class folder, class/alice.py beside class/bob.py), or hold a local node_modules with Lesson Companion in
 * it (its built-in packs, their hidden transcripts), or a pack.
 *
 * The allowlist is the learner file, plus, when the file sits where the lesson's starter layout puts its
 * main file, the files that layout declares (the starter's files, at the same places under the
 * workspace) and the sources of the package folders it declares (a folder of the starter other than its
 * root: `src/lb/` for conn-counts). The workspace root itself is not a package folder: it may be shared.
 * A file is left out when it is a link, sits under a node_modules, sits in a folder that holds a lesson
 * pack (a lesson.json), or inside a folder of privateFolders.ts (caches, installed packs, VS Code's).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside } from './sandboxView';
import { privateFolders } from './privateFolders';

/** Where the lesson's starter for the learner's language lives in the pack, and its main file. */
export interface StarterLayout {
  /** The starter's folder in the pack (absolute, real path). */
  readonly dir: string;
  /** The main file, relative to `dir` and to the learner's workspace. */
  readonly main: string;
}

const SOURCE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['.py'],
  javascript: ['.js', '.cjs', '.mjs', '.json'],
  typescript: ['.ts', '.cts', '.mts', '.js', '.json'],
};
/** A starter is a handful of files; a runaway folder is not listed further. */
const MAX_STARTER_FILES = 200;

function realpathOr(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/** The starter's files, relative to its folder (regular files only, no links followed). */
function starterFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (out.length >= MAX_STARTER_FILES) return;
      const child = path.join(relative, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('');
  return out;
}

/**
 * The workspace root when `realFile` sits where the starter puts its main file, or another of its files (a
 * walkthrough under examples/ that imports the main module), the main file first.
 */
function workspaceRoot(realFile: string, layout: StarterLayout, declared: readonly string[]): string | undefined {
  for (const relative of [layout.main, ...declared]) {
    const normal = path.normalize(relative);
    if (path.isAbsolute(normal) || normal.split(path.sep).includes('..')) continue;
    if (realFile.endsWith(path.sep + normal)) return realFile.slice(0, realFile.length - normal.length - 1) || path.sep;
  }
  return undefined;
}

/** Whether `file` (under `root`) may be shown: a regular file at its real path, outside everything hidden. */
function showable(file: string, root: string, hidden: readonly string[]): boolean {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile() || realpathOr(file) !== file) return false;
  if (path.basename(file) === 'lesson.json') return false;
  if (hidden.some((folder) => isInside(file, folder))) return false;
  for (let dir = path.dirname(file); isInside(dir, root) || dir === root; dir = path.dirname(dir)) {
    if (path.basename(dir) === 'node_modules' || fs.existsSync(path.join(dir, 'lesson.json'))) return false;
  }
  return true;
}

/** The files of the learner's view: real paths of regular files, the learner file first. */
export function learnerView(learnerFile: string, language: string, layout?: StarterLayout): string[] {
  const real = realpathOr(path.resolve(learnerFile)) ?? path.resolve(learnerFile);
  if (!layout) return [real];
  const declared = starterFiles(layout.dir);
  const root = workspaceRoot(real, layout, declared);
  if (!root) return [real];
  const hidden = privateFolders();
  const extensions = SOURCE_EXTENSIONS[language] ?? [];
  const files = new Set<string>([real]);
  for (const relative of declared) {
    const file = path.join(root, relative);
    if (showable(file, root, hidden)) files.add(file);
  }
  const packageFolders = new Set(declared.map((relative) => path.dirname(relative)).filter((dir) => dir !== '.'));
  for (const relative of packageFolders) {
    const folder = path.join(root, relative);
    let names: string[];
    try {
      names = fs.readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(folder, name);
      if (extensions.includes(path.extname(name).toLowerCase()) && showable(file, root, hidden)) files.add(file);
    }
  }
  return [...files];
}
