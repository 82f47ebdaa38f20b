/** `lesson-companion new`: writes a pack folder that validates as it is (see scaffoldFiles.ts). */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fsReason } from '../errors/errors';
import { blankScaffoldFiles } from './scaffoldBlank';
import { scaffoldFiles } from './scaffoldFiles';

export const PACK_ID = /^[a-z0-9][a-z0-9-]*$/;

export class ScaffoldError extends Error {}

/** Creates `<parent>/<id>`; refuses to write into a folder that already has files, so nothing is overwritten. */
/** `blank`: one command, one mistake, a TypeScript model (scaffoldBlank.ts); otherwise a small least-connections lesson. */
export async function createPack(
  parent: string,
  id: string,
  options: { blank?: boolean } = {},
): Promise<{ dir: string; files: string[] }> {
  if (!PACK_ID.test(id) || id.length > 64) {
    throw new ScaffoldError(
      `"${id}" cannot be a lesson id: use lower-case letters, digits and dashes (at most 64), starting with a letter or digit, e.g. "least-connections"`,
    );
  }
  const dir = path.resolve(parent, id);
  const existing = await fs.readdir(dir).catch(() => undefined);
  if (existing && existing.length > 0)
    throw new ScaffoldError(`${dir} already exists and is not empty; choose another id or --dir`);
  const files = options.blank ? blankScaffoldFiles(id) : scaffoldFiles(id);
  for (const [relative, text] of files) {
    const target = path.join(dir, relative);
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, text, { flag: 'wx' });
    } catch (error) {
      const why = fsReason(error);
      if (!why) throw error;
      throw new ScaffoldError(
        `cannot write ${target}: ${why}. Make the pack somewhere you can write to, e.g. --dir ~/lessons`,
      );
    }
  }
  return { dir, files: [...files.keys()] };
}
