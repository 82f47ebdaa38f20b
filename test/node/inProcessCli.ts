/**
 * The command line's `main`, run inside the test's own process with its output captured: for tests of what a
 * command decides and prints, where starting the built CLI as a process of its own adds nothing.
 */
import type { CliIO } from '../../src/cli/command';
import { main } from '../../src/cli/main';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * `lesson-companion <args>` in `cwd`, with `env` over this process's environment. `bundleDir` is where the CLI
 * takes itself to be installed (the built-in lessons are found beside it); `cwd` unless told.
 */
export async function runCli(
  args: string[],
  cwd: string,
  options: { readonly env?: NodeJS.ProcessEnv; readonly bundleDir?: string } = {},
): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    isTTY: false,
    env: { ...process.env, ...options.env },
    cwd,
    bundleDir: options.bundleDir ?? cwd,
  };
  const code = await main(args, io);
  return { code, out, err };
}
