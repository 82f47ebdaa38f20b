/**
 * Without a sandbox (the process-group fallback), a program's grandchild started with `setsid nohup env -i`
 * and its stdio on /dev/null leaves the process group, holds none of the run's pipes and carries no marker
 * in its environment: the sweep (descendants.ts) cannot find it. A cgroup can: a process never leaves the
 * cgroup it was started in unless someone who may write to another moves it, and `cgroup.kill` ends all of
 * it at once. PR_SET_CHILD_SUBREAPER would need a native helper, which the VSIX does not ship.
 *
 * So each fallback run starts in a cgroup of its own (cgroup v2) where this process may make one: under its
 * own cgroup, writable by it (root, or a systemd user slice delegated to the user). The run's first process
 * writes itself into `cgroup.procs` before it execs the program. When the run ends, the cgroup is killed
 * and removed. A folder left by a process killed with SIGKILL is killed and removed by the next one
 * (its name holds the owner's pid). Where no cgroup can be made, `cgroupUnavailable` says so in one line.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const PREFIX = 'lesson-companion-run-';
let counter = 0;
let base: string | null | undefined;

/** This process's own cgroup v2 folder, if the unified hierarchy is mounted and it may make folders in it. */
function ownCgroup(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const mount = fs
      .readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find((fields) => fields[fields.indexOf('-') + 1] === 'cgroup2');
    const line = fs
      .readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'));
    if (!mount || !line) return null;
    const dir = path.join(mount[4]!, line.slice(3));
    fs.accessSync(dir, fs.constants.W_OK);
    return dir;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Ends every process in the cgroup `dir` and removes it. */
function killAndRemove(dir: string): void {
  try {
    fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
  } catch {
    // Before Linux 5.14: each process by its pid.
    try {
      for (const pid of fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
        process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      fs.rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      // EBUSY while the killed processes are being reaped.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/** The folder runs' cgroups are made in, found once; left folders of dead owners are ended on the way. */
function cgroupBase(): string | null {
  if (base !== undefined) return base;
  base = ownCgroup();
  if (base) {
    for (const name of fs.readdirSync(base).filter((n) => n.startsWith(PREFIX))) {
      const owner = Number(name.slice(PREFIX.length).split('-')[0]);
      if (Number.isInteger(owner) && owner !== process.pid && !alive(owner)) killAndRemove(path.join(base, name));
    }
  }
  return base;
}

export interface RunCgroup {
  /** `command args` that first enter the cgroup, then exec the command. */
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
  /** Ends every process still in it, and removes it. */
  end(): void;
}

/** A cgroup for one run, or undefined where none can be made here. */
export function runCgroup(): RunCgroup | undefined {
  const parent = cgroupBase();
  if (!parent) return undefined;
  const dir = path.join(parent, `${PREFIX}${process.pid}-${(counter += 1)}`);
  try {
    fs.mkdirSync(dir);
  } catch {
    return undefined;
  }
  return {
    wrap: (command, args) => ({
      command: '/bin/sh',
      // Written before the exec, so the program and all it starts are in the cgroup from their first instruction.
      args: ['-c', 'echo $$ > "$1/cgroup.procs" 2>/dev/null; shift; exec "$@"', 'sh', dir, command, ...args],
    }),
    end: () => killAndRemove(dir),
  };
}

/** The line a check without a sandbox says at its start when its processes cannot all be held; else undefined. */
export function cgroupUnavailable(): string | undefined {
  if (process.platform !== 'linux' || cgroupBase()) return undefined;
  return "no sandbox and no cgroup of its own here: a process the program starts in a new session, with no output, can outlive the check (the sweep finds only those that keep the check's pipes or environment)";
}
