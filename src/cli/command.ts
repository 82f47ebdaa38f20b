/** A CLI subcommand. Each lives in its own file and is listed in main.ts. */
export interface CliIO {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly isTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Folder of the running bundle, to find the built-in lessons. */
  readonly bundleDir: string;
}

export interface CliCommand {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  run(args: string[], io: CliIO): Promise<number>;
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export class UsageError extends Error {}
