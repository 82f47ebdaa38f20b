/** Finding a test's own processes by a marker on their command line, with `ps`: while a check runs and after. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Live (not zombie) processes whose command line holds `marker`, as `ps` lines. */
export async function processesWith(marker: string): Promise<string[]> {
  const { stdout } = await exec('ps', ['-eo', 'pid=,stat=,args='], { maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter((line) => line.includes(marker) && !/^\s*\d+\s+Z/.test(line) && !line.includes('ps -eo'));
}

/** Processes with `marker` still there after up to `waitMs` (the kill is asynchronous): [] when none survived. */
export async function survivorsOf(marker: string, waitMs = 2000): Promise<string[]> {
  const until = Date.now() + waitMs;
  let found = await processesWith(marker);
  while (found.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    found = await processesWith(marker);
  }
  return found;
}

/**
 * Runs `during` while polling for processes with `marker`; resolves to its result and the most such
 * processes seen at once (to show that what must not survive did start).
 */
export async function watchWhile<T>(
  marker: string,
  during: () => Promise<T>,
): Promise<{ result: T; mostSeen: number }> {
  let mostSeen = 0;
  let running = true;
  const poll = (async () => {
    while (running) {
      mostSeen = Math.max(mostSeen, (await processesWith(marker)).length);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    return { result: await during(), mostSeen };
  } finally {
    running = false;
    await poll;
  }
}
