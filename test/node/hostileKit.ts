/**
 * Helpers for the hostile-pack tests: build a case from the new-pack scaffold plus its fixture folder
 * (test/fixtures/hostile/packs/<case>), pack it into an archive with a correct manifest (what a hostile
 * author's own tool would write, since `bundle` refuses these packs), take snapshots of folders to prove
 * nothing was written where it should not be, and time each refusal.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CliIO } from '../../src/cli/command';
import { ARCHIVE_MANIFEST, integrityInput, type ArchiveFile } from '../../src/core/pack/archive';
import { createPack } from '../../src/node/authoring/scaffold';
import { craftZip } from './zipCraft';

export const ROOT = path.resolve(__dirname, '..', '..');
export const HOSTILE = path.join(ROOT, 'test', 'fixtures', 'hostile');
const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

type Manifest = Record<string, unknown> & { mistakes: Record<string, unknown>[]; readOrder: Record<string, unknown>[] };

/** The `demo` pack `lesson-companion new` writes, at `<parent>/<name>`, with case `name`'s fixture files laid over it. */
export async function makeCase(
  parent: string,
  name: string,
  edit?: (manifest: Manifest) => void,
  compact = false,
): Promise<string> {
  const { dir } = await createPack(path.join(parent, name), 'demo');
  const fixture = path.join(HOSTILE, 'packs', name);
  const manifestFile = path.join(dir, 'lesson.json');
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as Manifest;
  if (
    await fs.stat(fixture).then(
      () => true,
      () => false,
    )
  ) {
    await fs.cp(fixture, dir, { recursive: true, filter: (src) => path.basename(src) !== 'lesson.override.json' });
    const override = await fs.readFile(path.join(fixture, 'lesson.override.json'), 'utf8').catch(() => undefined);
    if (override) Object.assign(manifest, JSON.parse(override));
  }
  edit?.(manifest);
  await fs.writeFile(manifestFile, compact ? JSON.stringify(manifest) : JSON.stringify(manifest, null, 2));
  return dir;
}

/** Every file of `dir`, path → its SHA-256 (folders: "dir"), to compare before and after. */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (relative: string): Promise<void> => {
    const entries = await fs.readdir(path.join(dir, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        out.set(rel, 'dir');
        await walk(rel);
      } else out.set(rel, entry.isFile() ? sha(await fs.readFile(path.join(dir, rel))) : 'other');
    }
  };
  await walk('');
  return out;
}

/** What differs between two snapshots, as "+ added", "- removed", "~ changed" lines. */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, h] of after)
    if (!before.has(p)) out.push(`+ ${p}`);
    else if (before.get(p) !== h) out.push(`~ ${p}`);
  for (const p of before.keys()) if (!after.has(p)) out.push(`- ${p}`);
  return out.sort();
}

/** An archive of the pack folder `dir` with a correct manifest: hashes and integrity match. */
export async function archiveOfFolder(dir: string, id = 'demo', version = '0.1.0'): Promise<Buffer> {
  const files = new Map<string, Buffer>();
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (rel === 'authoring') continue;
      if (entry.isDirectory()) await walk(rel);
      else files.set(rel, await fs.readFile(path.join(dir, rel)));
    }
  };
  await walk('');
  return archiveOf(files, id, version);
}

export function archiveOf(files: Map<string, Buffer>, id = 'demo', version = '0.1.0', listed?: ArchiveFile[]): Buffer {
  const list = listed ?? [...files].map(([p, data]) => ({ path: p, sha256: sha(data), size: data.length }));
  const manifest = { format: 1, id, version, files: list, integrity: sha(integrityInput(list)) };
  return craftZip([
    { name: ARCHIVE_MANIFEST, data: Buffer.from(JSON.stringify(manifest)) },
    ...[...files].map(([name, data]) => ({ name, data, method: 8 as const })),
  ]);
}

/** Text shown to a person: some words, no stack trace, no control character but line breaks. */
export function assertWords(text: string, expected: RegExp): void {
  assert.match(text, expected);
  assert.doesNotMatch(text, /\n\s+at .+[(:]\d+/, `a stack trace reached the user:\n${text}`);
  assert.doesNotMatch(
    text,
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
    `a control character reached the user: ${JSON.stringify(text)}`,
  );
}

export function fakeIo(cwd: string, env: NodeJS.ProcessEnv = {}): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    isTTY: false,
    env: { NO_COLOR: '1', ...env },
    cwd,
    bundleDir: path.join(ROOT, 'dist'),
  };
  return io;
}

/** How long each case took to be refused or handled, printed at the end of the run (not asserted). */
export const timings: { case: string; what: string; ms: number }[] = [];

export async function timed<T>(name: string, what: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    timings.push({ case: name, what, ms: Math.round(performance.now() - started) });
  }
}

export function printTimings(title: string): void {
  if (timings.length === 0) return;
  const w = Math.max(...timings.map((t) => t.case.length));
  console.log(`\n    ${title}`);
  for (const t of timings.splice(0))
    console.log(`      ${t.case.padEnd(w)}  ${String(t.ms).padStart(6)} ms  ${t.what}`);
}
