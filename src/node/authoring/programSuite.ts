/**
 * `validate --programs <folder>`: an instructor's regression suite for a pack. Each sample learner program
 * states its expected verdict in a header line, `# expect-mistakes: none` (correct), `# expect-mistakes:
 * tiebreak, negative-count` (those mistakes, named) or `# expect-mistakes: (unnamed)` (wrong in a way no
 * mistake names), with `#` or `//`, in its first 12 lines (the format of test/fixtures/real-style). Each is
 * checked for real against the pack, and reported as matched or not.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Language } from '../../core/pack/schema';
import { checkFile } from '../check/checker';
import { languageOf, type Interpreters } from '../languages/languages';
import type { LoadedPack } from '../packs/packs';

export interface ProgramResult {
  /** Relative to the folder given. */
  readonly file: string;
  readonly language?: Language;
  /** `none`, `(unnamed)` or the mistake ids, sorted and comma-joined; undefined when the header has none. */
  readonly expected?: string;
  readonly got?: string;
  readonly matched: boolean;
  /** Why the program was not checked, or what else the check reported (a crash, a timeout). */
  readonly note?: string;
}

const MAX_PROGRAMS = 200;

/** The expected verdict a program's header states, normalised, or undefined. */
export function expectedVerdict(source: string): string | undefined {
  for (const line of source.split(/\r?\n/).slice(0, 12)) {
    const match = /^\s*(?:#|\/\/)\s*expect-mistakes:\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const listed = match[1]!;
    if (listed === 'none' || listed === '(unnamed)') return listed;
    const ids = listed
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean)
      .sort();
    return ids.length > 0 ? ids.join(', ') : undefined;
  }
  return undefined;
}

async function programFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      if (
        out.length >= MAX_PROGRAMS ||
        entry.name.startsWith('.') ||
        entry.name === 'node_modules' ||
        entry.name === '__pycache__'
      )
        continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && languageOf(full) !== undefined) out.push(full);
    }
  };
  await walk(root);
  return out;
}

/** Checks every program of `folder` (one at a time: each check runs its own processes) against `pack`. */
export async function checkPrograms(
  pack: LoadedPack,
  folder: string,
  options: { interpreters?: Partial<Interpreters> } = {},
): Promise<ProgramResult[]> {
  const results: ProgramResult[] = [];
  for (const file of await programFiles(folder)) {
    const shown = path.relative(folder, file);
    const language = languageOf(file)!;
    const expected = expectedVerdict(await fs.readFile(file, 'utf8'));
    if (expected === undefined) {
      results.push({
        file: shown,
        language,
        matched: false,
        note: 'no "expect-mistakes:" line in its first 12 lines, so it was not checked',
      });
      continue;
    }
    if (!pack.manifest.starters[language]) {
      results.push({ file: shown, language, expected, matched: false, note: `the pack has no ${language} starter` });
      continue;
    }
    const report = await checkFile(
      pack,
      file,
      language,
      options.interpreters ? { interpreters: options.interpreters } : {},
    );
    const named = report.mistakes.map((m) => m.id).sort();
    const got = report.status === 'pass' ? 'none' : named.length > 0 ? named.join(', ') : '(unnamed)';
    const problem = report.problems[0];
    results.push({
      file: shown,
      language,
      expected,
      got,
      matched: got === expected,
      ...(got !== expected && problem ? { note: problem.message } : {}),
    });
  }
  return results;
}

/** The suite's lines for a person: one per program, then the count. */
export function formatPrograms(results: readonly ProgramResult[]): string {
  const lines = results.map((r) =>
    r.got === undefined
      ? `  ✗ ${r.file}: ${r.note}`
      : `  ${r.matched ? '✓' : '✗'} ${r.file}: expected ${r.expected}${r.matched ? '' : `, got ${r.got}`}${r.note ? ` (${r.note})` : ''}`,
  );
  const matched = results.filter((r) => r.matched).length;
  return `\nPrograms: ${matched} of ${results.length} matched their expected verdict\n${lines.join('\n')}\n`;
}
