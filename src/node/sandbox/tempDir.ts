import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fsError } from '../errors/errors';

/**
 * A fresh folder in the system's temporary folder. A TMPDIR that names a missing or read-only folder
 * is a setting the user can fix, so it is said so rather than shown as a stack trace.
 */
export async function makeTempDir(prefix: string): Promise<string> {
  const base = os.tmpdir();
  try {
    return await fs.mkdtemp(path.join(base, prefix));
  } catch (error) {
    const fromEnv = process.env.TMPDIR || process.env.TMP || process.env.TEMP;
    const advice = fromEnv
      ? 'Set TMPDIR to a folder that exists and that you can write to, or unset it.'
      : 'Check that the temporary folder exists and that you can write to it.';
    throw fsError(error, 'create a temporary folder in', base, advice);
  }
}
