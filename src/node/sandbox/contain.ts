/**
 * How a check runs a prepared learner program: in the sandbox where this machine has one (sandbox.ts),
 * else in its own process group with a sweep for descendants. Either way with a memory limit, a private
 * working folder, and an environment made of an allowlist: a token in the CLI's environment (a grader's)
 * never reaches the learner's program.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCgroup, type RunCgroup } from './checkCgroup';
import { removeTree, trackTempDir } from './cleanup';
import { failedSession, startInteractive, type InteractiveSession, type InteractiveSpec } from '../run/interactive';
import { resolveInterpreter, type ResolvedInterpreter } from '../languages/interpreter';
import type { PreparedProgram } from '../languages/languages';
import type { ProcessResult } from '../../core/check/process';
import { runProcess, type ProcessSpec } from '../run/runner';
import { runPastMachineFailures } from '../run/machineFailures';
import { availableSandbox, bwrapArgs, bwrapRunArgs, onPath, type SandboxSetting, type SandboxTool } from './sandbox';
import { tiedToParent } from './parentDeath';
import { installedToolCopies, privateFolders } from './privateFolders';
import { insideArgs, packFilesView, SANDBOX_WORK_DIR, type SandboxView } from './sandboxView';
import { unshareArgs, unshareRunArgs } from './unshareSandbox';
import { newRunWord } from './ownerMark';

export type Containment = 'sandbox' | 'process-group';

export const DEFAULT_MEMORY_LIMIT_MIB = 512;
/** Processes and threads the program may have at once inside the sandbox (a fork bomb stops there). */
const SANDBOX_MAX_PROCESSES = 256;
/** Largest file the program may write, in MiB. */
const MAX_FILE_MIB = 64;

/** `--sandbox=require` on a machine without one. */
export class SandboxUnavailableError extends Error {}

export interface ContainOptions {
  readonly setting: SandboxSetting;
  readonly memoryLimitMiB?: number;
  /** Folders the program must not see: the lesson pack (its hidden transcripts). */
  readonly hidden: readonly string[];
}

type RunSpec = Omit<ProcessSpec, 'timeLimitMs' | 'outputLimitBytes'>;
export type RunLimits = Pick<ProcessSpec, 'timeLimitMs' | 'outputLimitBytes' | 'stallMs' | 'signal'>;
export type SessionLimits = Pick<InteractiveSpec, 'timeLimitMs' | 'answerTimeLimitMs' | 'outputLimitBytes'>;

export interface Launch {
  readonly containment: Containment;
  /** Set when the interpreter cannot be started at all (ENOENT for a missing one). */
  readonly startError?: { readonly code: string; readonly command: string };
  /** One run with this input; runs may overlap, each in a private folder of its own. */
  run(input: string, limits: RunLimits): Promise<ProcessResult>;
  /** One run driven line by line (a simulation), contained the same way. */
  open(limits: SessionLimits): Promise<InteractiveSession>;
}

/** What a program needs of the environment, and nothing else. */
function allowlistEnv(home: string, pathVariable: string): NodeJS.ProcessEnv {
  return {
    PATH: pathVariable,
    HOME: home,
    TMPDIR: home,
    TERM: 'dumb',
    LANG: process.env.LANG || 'C.UTF-8',
    ...(process.env.LC_ALL ? { LC_ALL: process.env.LC_ALL } : {}),
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONIOENCODING: 'utf-8',
    PYTHONUNBUFFERED: '1',
  };
}

/**
 * `command args` under the memory limit: RLIMIT_DATA is the limit (what a heap grows into), RLIMIT_AS
 * a backstop well above it (Node reserves about 0.7 GiB of address space it never uses), and Node's heap
 * stops a little below the limit so it fails with its own "heap out of memory".
 */
function limited(
  runtime: PreparedProgram['runtime'],
  command: string,
  args: readonly string[],
  memoryMiB: number,
  inSandbox: boolean,
): [string, string[]] {
  const interpreterArgs =
    runtime === 'node' ? [`--max-old-space-size=${Math.floor(memoryMiB * 0.75)}`, ...args] : [...args];
  if (process.platform !== 'linux') return [command, interpreterArgs];
  const mib = (n: number): number => n * 1024 * 1024;
  const prlimit = onPath('prlimit');
  if (prlimit) {
    const limits = [
      `--data=${mib(memoryMiB)}`,
      `--as=${mib(memoryMiB + 1536)}`,
      '--core=0',
      `--fsize=${mib(MAX_FILE_MIB)}`,
    ];
    // Outside a sandbox the process count is the user's own (all their processes), so no limit there.
    if (inSandbox) limits.push(`--nproc=${SANDBOX_MAX_PROCESSES}`);
    return [prlimit, [...limits, '--', command, ...interpreterArgs]];
  }
  const kib = (n: number): number => n * 1024;
  const script = `ulimit -d ${kib(memoryMiB)}; ulimit -v ${kib(memoryMiB + 1536)}; ulimit -c 0; exec "$@"`;
  return ['/bin/sh', ['-c', script, 'sh', command, ...interpreterArgs]];
}

export async function containProgram(program: PreparedProgram, options: ContainOptions): Promise<Launch> {
  // Both are asked once per process; the first check asks both at once.
  const [sandbox, resolved] = await Promise.all([
    options.setting === 'off' ? null : availableSandbox(),
    resolveInterpreter(program.command, program.runtime),
  ]);
  if (!sandbox && options.setting === 'require') throw noSandboxError();
  const memoryMiB = options.memoryLimitMiB ?? DEFAULT_MEMORY_LIMIT_MIB;
  const containment: Containment = sandbox ? 'sandbox' : 'process-group';
  if (!resolved.ok && ['ENOENT', 'EACCES', 'ENOTDIR'].includes(resolved.code))
    return unstartableLaunch(program, containment, resolved.code);
  const interpreter: ResolvedInterpreter = resolved.ok
    ? resolved.interpreter
    : { executable: program.command, needs: [] };
  return sandbox
    ? sandboxedLaunch(program, sandbox, interpreter, memoryMiB, options.hidden)
    : processGroupLaunch(program, interpreter.executable, memoryMiB);
}

function noSandboxError(): SandboxUnavailableError {
  return new SandboxUnavailableError(
    process.platform === 'linux'
      ? 'the sandbox is required (--sandbox=require) but this machine has none: install bubblewrap (e.g. `apt-get install bubblewrap`), or allow unprivileged user namespaces for `unshare`'
      : `the sandbox is required (--sandbox=require) but there is none on ${process.platform}: it needs Linux with bubblewrap or user namespaces`,
  );
}

/** The interpreter cannot be started at all: every run is that start error, and every session ends with why. */
function unstartableLaunch(program: PreparedProgram, containment: Containment, code: string): Launch {
  const startError = { code, command: program.command };
  const none = {
    stdout: '',
    stderr: '',
    exitCode: null,
    signal: null,
    timedOut: false,
    outputLimited: false,
    durationMs: 0,
  };
  return {
    containment,
    startError,
    run: async () => ({ ...none, startError }),
    open: async () =>
      failedSession(
        `${program.command} could not be started (${code}): is it installed, and is the path in the settings right?`,
      ),
  };
}

/** Every run inside the sandbox: the program, its interpreter and the pack files it may see, nothing else. */
function sandboxedLaunch(
  program: PreparedProgram,
  sandbox: { readonly tool: SandboxTool; readonly path: string },
  interpreter: ResolvedInterpreter,
  memoryMiB: number,
  hidden: readonly string[],
): Launch {
  const { executable, needs } = interpreter;
  const packFiles = packFilesView(program.packFiles);
  const [command, args] = limited(program.runtime, executable, insideArgs(packFiles, program.args), memoryMiB, true);
  // The limit's wrapper (prlimit) is run inside too: it must be visible there, wherever it is installed.
  const readOnly = [...program.readable, ...needs, command];
  // Looked for again at each run (well under a millisecond): a copy of the tool installed or removed while a check
  // runs (`npm install -g`, `npm rm -g`) is hidden from the next run, and one that is gone is no longer a folder to
  // cover, whose mount point bubblewrap could not make in the read-only /usr ("Can't mkdir …: Read-only file system":
  // every later run of the check failed so, and the program was said to have stopped answering).
  const viewOfOneRun = (): SandboxView => ({
    readOnly,
    packFiles,
    hidden: [...hidden, ...privateFolders(), ...installedToolCopies(['/usr', '/usr/local', ...readOnly])],
  });
  // Both are tied to the CLI by setpriv. What no tie holds: a bwrap killed while it sets up its first child
  // leaves that child untied, PID 1 of its own namespace (so SIGTERM does not reach it), in a session of its
  // own. The runner ends it by the run's word (ownerMark.ts); in a check service killed with SIGKILL, the client
  // ends it by the service's mark.
  const pathVariable = [...new Set([path.dirname(executable), '/usr/local/bin', '/usr/bin', '/bin'])].join(':');
  const specOfOneRun = (): RunSpec => {
    const view = viewOfOneRun();
    const base = sandbox.tool === 'bwrap' ? bwrapArgs(view, command, args) : unshareArgs(view, command, args);
    const runWord = newRunWord();
    const tool = tiedToParent(
      sandbox.path,
      sandbox.tool === 'bwrap' ? bwrapRunArgs(base, runWord) : unshareRunArgs(base, runWord),
    );
    return {
      command: tool.command,
      args: tool.args,
      cwd: os.tmpdir(),
      env: allowlistEnv(SANDBOX_WORK_DIR, pathVariable),
      inheritEnv: false,
      memoryLimitMiB: memoryMiB,
      runWord,
    };
  };
  return {
    containment: 'sandbox',
    run: (input, limits) =>
      runPastMachineFailures(() => runProcess({ ...specOfOneRun(), ...limits }, input), true, limits.signal),
    open: async (limits) => startInteractive({ ...specOfOneRun(), ...limits }),
  };
}

interface PrivateFolder {
  readonly dir: string;
  readonly cgroup: RunCgroup | undefined;
  readonly remove: () => void;
}

/**
 * Each run in a private folder of its own, and in a cgroup of its own where one can be made (checkCgroup.ts):
 * when the run ends, whatever it started ends too, in a new session or not.
 */
async function privateFolder(): Promise<PrivateFolder> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lesson-companion-run-'));
  const untrack = trackTempDir(dir);
  const cgroup = runCgroup();
  return {
    dir,
    cgroup,
    remove: () => {
      cgroup?.end();
      removeTree(dir);
      untrack();
    },
  };
}

/** No sandbox: each run in its own process group, its own private folder (its working folder and HOME). */
function processGroupLaunch(program: PreparedProgram, executable: string, memoryMiB: number): Launch {
  // Tied to the CLI's life: what it forks is not (only the sweep finds that, while the CLI lives).
  const { command, args } = tiedToParent(...limited(program.runtime, executable, program.args, memoryMiB, false));
  const posix = process.platform !== 'win32';
  const specIn = (workDir: string, cgroup: RunCgroup | undefined): RunSpec => ({
    ...(cgroup ? cgroup.wrap(command, args) : { command, args }),
    cwd: workDir,
    // Windows programs need much of the environment (SYSTEMROOT and more): there it stays as it was.
    ...(posix ? { env: allowlistEnv(workDir, process.env.PATH ?? '/usr/bin:/bin'), inheritEnv: false } : {}),
    sweepDescendants: process.platform === 'linux',
    ...(process.platform === 'linux' ? { memoryLimitMiB: memoryMiB } : {}),
  });
  return {
    containment: 'process-group',
    run: (input, limits) =>
      runPastMachineFailures(
        async () => {
          const folder = await privateFolder();
          try {
            return await runProcess({ ...specIn(folder.dir, folder.cgroup), ...limits }, input);
          } finally {
            folder.remove();
          }
        },
        false,
        limits.signal,
      ),
    open: async (limits) => {
      const folder = await privateFolder();
      const session = startInteractive({ ...specIn(folder.dir, folder.cgroup), ...limits });
      return {
        ...session,
        close: async () => {
          await session.close();
          folder.remove();
        },
      };
    },
  };
}
