/** How a run is spawned: its command line, folder and environment, in a process group of its own. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** What running `spec` spawns: the command line, folder and environment, as given to spawn. */
export interface SpawnPlan {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/** In its own process group (detached), so that the group can be killed whole. */
export function spawnPlanned(plan: SpawnPlan): ChildProcessWithoutNullStreams {
  return spawn(plan.command, [...plan.args], {
    cwd: plan.cwd,
    env: { ...plan.env },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
}

/** What a run asks to spawn (a run's ProcessSpec, runner.ts, adds its limits). */
export interface SpawnRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Added to the CLI's own environment, or the whole environment when `inheritEnv` is false. */
  readonly env?: NodeJS.ProcessEnv;
  /** False for contained runs: the program gets `env` only, never a token from the CLI's environment. */
  readonly inheritEnv?: boolean;
}

/** What running `spec` spawns (and `runId` marks, for the sweep). */
export function spawnPlan(spec: SpawnRequest, runId?: string): SpawnPlan {
  const env = {
    ...(spec.inheritEnv === false
      ? {}
      : {
          ...process.env,
          PYTHONDONTWRITEBYTECODE: '1',
          PYTHONIOENCODING: 'utf-8',
          PYTHONUNBUFFERED: '1',
          NODE_OPTIONS: '',
        }),
    ...spec.env,
    ...(runId ? { LESSON_COMPANION_RUN: runId } : {}),
  };
  return {
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
  };
}
