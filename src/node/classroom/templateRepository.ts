/**
 * What `classroom init` puts into an assignment's template repository besides the workflow: the lesson pack
 * (so a pack that is not built in reaches the runner), and, vendored, the lesson-companion tarball; and what
 * it asks npm to learn the exact version and sha512 integrity the workflow pins.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ARCHIVE_LIMITS, isBundledPath } from '../../core/pack/archive';
import { EXACT_VERSION, PACKAGE_NAME, SHA512_INTEGRITY } from '../../core/grade/classroomWorkflow';
import { WordedError } from '../errors/errors';
import { loadPack, type LoadedPack } from '../packs/packs';

export interface PackageTarball {
  readonly version: string;
  readonly integrity: string;
  /** The tarball's path, when npm wrote one (not for a dry run). */
  readonly file?: string;
}

/** The version of the lesson-companion this CLI is: its package.json beside dist/, if it is the package's. */
export async function ownVersion(bundleDir: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(bundleDir, '..', 'package.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
    return manifest.name === PACKAGE_NAME && typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `npm pack <spec>` (a tarball file or `lesson-companion@<version>`): its name, version and integrity, and with
 * `destination` the tarball written there. npm reads the tarball's own package.json and hashes its bytes.
 */
export function npmPack(
  spec: string,
  options: { readonly registry?: string; readonly destination?: string; readonly cwd: string },
): Promise<PackageTarball> {
  const args = ['pack', spec, '--json', '--ignore-scripts'];
  if (options.registry) args.push('--registry', options.registry);
  args.push(...(options.destination ? ['--pack-destination', options.destination] : ['--dry-run']));
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      args,
      { cwd: options.cwd, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // npm's first lines are its code and errno; the sentence after them says what went wrong.
        const why = stderr
          .split('\n')
          .filter((l) => /^npm (error|ERR!)/.test(l))
          .map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim())
          .find((l) => l && !/^(code|errno|syscall) |complete log of this run/.test(l));
        if (error)
          return reject(
            new WordedError(
              `npm could not fetch ${spec}${options.registry ? ` from ${options.registry}` : ''}${why ? `: ${why}` : ` (${error.message.split('\n')[0]})`}. Publish that version, or give the tarball with --tarball <file> (and --vendor to put it in the repository).`,
            ),
          );
        try {
          const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
            name: string;
            version: string;
            integrity: string;
            filename: string;
          }[];
          if (packed?.name !== PACKAGE_NAME) throw new Error(`it is ${packed?.name ?? 'nothing'}, not ${PACKAGE_NAME}`);
          if (!EXACT_VERSION.test(packed.version) || !SHA512_INTEGRITY.test(packed.integrity))
            throw new Error(`npm gave no exact version and sha512 integrity for it`);
          const file = options.destination ? path.join(options.destination, packed.filename) : undefined;
          resolve({ version: packed.version, integrity: packed.integrity, ...(file ? { file } : {}) });
        } catch (problem) {
          reject(new WordedError(`${spec} is not a ${PACKAGE_NAME} package: ${(problem as Error).message}.`));
        }
      },
    );
  });
}

/** The pack's files as a .lessonpack would hold them: no authoring notes, dotfiles or caches. */
async function packFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  let bytes = 0;
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (!isBundledPath(rel)) continue;
      if (entry.isDirectory()) await walk(rel);
      else if (!entry.isFile()) throw new Error(`${rel} is not a plain file`);
      else {
        files.push(rel);
        bytes += (await fs.stat(path.join(dir, rel))).size;
      }
      if (files.length > ARCHIVE_LIMITS.entries || bytes > ARCHIVE_LIMITS.totalBytes)
        throw new Error(`it is larger than a lesson pack may be (${ARCHIVE_LIMITS.entries} files, 20 MiB)`);
    }
  };
  await walk('');
  return files;
}

/**
 * Copies the pack into `into` (the template repository's PACK_HOME/<id>, replaced if it is there) and loads
 * the copy, so what the runner will load is known to load. Refuses with a sentence when it cannot.
 */
export async function copyPack(pack: LoadedPack, into: string): Promise<number> {
  const refuse = (why: string): never => {
    throw new WordedError(
      `Cannot copy the lesson pack "${pack.manifest.id}" (${pack.dir}) into the template repository: ${why}. The runner checks against the pack in the repository, so no workflow was written.`,
    );
  };
  const files = await packFiles(pack.dir).catch((error: Error) => refuse(error.message));
  const inside = path.relative(pack.dir, into);
  if (!inside.startsWith('..') && !path.isAbsolute(inside)) refuse('the repository is inside the pack folder');
  await fs.rm(into, { recursive: true, force: true });
  try {
    for (const rel of files) {
      await fs.mkdir(path.dirname(path.join(into, rel)), { recursive: true });
      await fs.copyFile(path.join(pack.dir, rel), path.join(into, rel));
    }
    await loadPack(into);
  } catch (error) {
    await fs.rm(into, { recursive: true, force: true });
    refuse(`the copy does not load as a lesson pack (${(error as Error).message.split('\n')[0]})`);
  }
  return files.length;
}
