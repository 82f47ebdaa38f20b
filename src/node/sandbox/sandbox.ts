/**
 * A sandbox for learner code on Linux. The learner's program (and a pack driver, which runs with it)
 * sees a read-only system, the interpreter, its own folder read-only, and a private writable /tmp as its
 * working folder; not the pack (its hidden transcripts), the CLI, the extension or the network. It runs in
 * its own PID namespace, which dies with the check: whatever it starts ends with it, `setsid` or not.
 *
 * bubblewrap (`bwrap`) builds it when installed; else `unshare` (util-linux) where user namespaces are
 * allowed (see unshareSandbox.ts). Where neither works, the runner falls back to a process group and a
 * sweep for descendants (descendants.ts), and the report says so.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ETC_FILES,
  SANDBOX_UID,
  SANDBOX_WORK_DIR,
  WORK_DIR_BYTES,
  extraBinds,
  hiddenInside,
  topLevelSystem,
  type SandboxView,
} from './sandboxView';
import { ownWord } from './ownerMark';
import { unshareArgs } from './unshareSandbox';

export type SandboxSetting = 'auto' | 'require' | 'off';
export type SandboxTool = 'bwrap' | 'unshare';

export const SANDBOX_SETTINGS: readonly SandboxSetting[] = ['auto', 'require', 'off'];

export function isSandboxSetting(value: string): value is SandboxSetting {
  return (SANDBOX_SETTINGS as readonly string[]).includes(value);
}

/** The setting `LESSON_COMPANION_SANDBOX` asks for (tests and CI set it), `auto` when unset. */
export function sandboxSettingFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxSetting {
  const value = env.LESSON_COMPANION_SANDBOX?.trim().toLowerCase();
  return value && isSandboxSetting(value) ? value : 'auto';
}

interface BwrapFeatures {
  readonly size: boolean;
  readonly disableUserns: boolean;
}

let bwrapFeatures: BwrapFeatures | undefined;

/** The bubblewrap command line that runs `command args` in the sandbox. */
export function bwrapArgs(view: SandboxView, command: string, args: readonly string[]): string[] {
  const features = bwrapFeatures ?? { size: false, disableUserns: false };
  const system = topLevelSystem();
  const binds = extraBinds(view.readOnly);
  const owner = ownWord();
  return [
    '--unshare-all',
    '--unshare-user',
    ...['--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID)],
    ...(features.disableUserns ? ['--disable-userns'] : []),
    ...['--cap-drop', 'ALL'],
    '--die-with-parent',
    '--new-session',
    ...['--ro-bind', '/usr', '/usr'],
    ...system.links.flatMap(([target, at]) => ['--symlink', target, at]),
    ...system.folders.flatMap((dir) => ['--ro-bind', dir, dir]),
    ...ETC_FILES.flatMap((file) => ['--ro-bind-try', file, file]),
    ...['--proc', '/proc', '--dev', '/dev'],
    ...(features.size ? ['--size', String(WORK_DIR_BYTES)] : []),
    ...['--tmpfs', SANDBOX_WORK_DIR],
    ...binds.flatMap((bind) => ['--ro-bind', bind, bind]),
    // The pack inside the learner's workspace is covered by an empty, read-only folder.
    ...hiddenInside(view, binds).flatMap((hidden) => ['--tmpfs', hidden, '--remount-ro', hidden]),
    ...[...view.packFiles].flatMap(([host, inside]) => ['--ro-bind', host, inside]),
    // Only the private /tmp (bounded) is writable: not the root or /dev, which are unbounded tmpfs.
    ...['--remount-ro', '/dev', '--remount-ro', '/'],
    ...['--chdir', SANDBOX_WORK_DIR],
    // Inside, a no-op; on the command line, the mark by which the service's client ends what a killed
    // service left (ownerMark.ts).
    ...(owner ? ['--unsetenv', owner] : []),
    '--',
    command,
    ...args,
  ];
}

/** The command line of one run: `bwrapArgs` with the run's word first (bubblewrap takes its options in any order). */
export function bwrapRunArgs(args: readonly string[], runWord: string): string[] {
  return ['--unsetenv', runWord, ...args];
}

function run(
  command: string,
  args: readonly string[],
  timeoutMs = 10_000,
): Promise<{ ok: boolean; stdout: string; stderr: string; code?: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { timeout: timeoutMs, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } },
      (error, stdout, stderr) => {
        resolve({
          ok: !error,
          stdout,
          stderr,
          ...(error && typeof error.code === 'string' ? { code: error.code } : {}),
        });
      },
    );
  });
}

/** Where `name` is on PATH, as an absolute path. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The probe program: a real start of the system's `true` in the sandbox, as a check would start one. */
const PROBE_VIEW: SandboxView = { readOnly: [], packFiles: new Map(), hidden: [] };

async function probeBwrap(bwrap: string): Promise<boolean> {
  bwrapFeatures = { size: true, disableUserns: true };
  if ((await run(bwrap, bwrapArgs(PROBE_VIEW, 'true', []))).ok) return true;
  // An older bubblewrap (before 0.6 or so) refuses these options: try once without them.
  bwrapFeatures = { size: false, disableUserns: false };
  return (await run(bwrap, bwrapArgs(PROBE_VIEW, 'true', []))).ok;
}

let detected: Promise<{ tool: SandboxTool; path: string } | null> | undefined;

/**
 * The sandbox this machine offers, found once per process by starting one: a bwrap or unshare that exists
 * but cannot create namespaces (a kernel or container that forbids them) is as good as none.
 * For tests, `LESSON_COMPANION_SANDBOX_TOOL` picks one: `unshare` skips bubblewrap (to test the unshare
 * sandbox where both exist), `bwrap` skips unshare, `none` plays a machine that has neither.
 */
export function availableSandbox(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ tool: SandboxTool; path: string } | null> {
  detected ??= (async () => {
    const only = env.LESSON_COMPANION_SANDBOX_TOOL;
    if (process.platform !== 'linux' || only === 'none') return null;
    const bwrap = onPath('bwrap');
    if (bwrap && only !== 'unshare' && (await probeBwrap(bwrap))) return { tool: 'bwrap' as const, path: bwrap };
    const unshare = onPath('unshare');
    if (unshare && only !== 'bwrap') {
      const probe = await run(unshare, unshareArgs(PROBE_VIEW, 'true', []));
      if (probe.ok) return { tool: 'unshare' as const, path: unshare };
    }
    return null;
  })();
  return detected;
}

/** For tests: forget what was detected (after changing LESSON_COMPANION_SANDBOX_TOOL). */
export function forgetDetectedSandbox(): void {
  detected = undefined;
}
