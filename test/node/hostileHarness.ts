/**
 * Runs the hostile programs of test/fixtures/hostile/programs through the built CLI, as an autograder
 * would: a real `node cli.js check …` process with a grader's token in its environment, a private TMPDIR
 * and HOME, and a copy of the least-connections pack (so that a program that rewrites packs can only
 * ever damage the copy).
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CheckReport } from '../../src/core/report/report';
import { buildCliBundle } from './cliBundle';

export const ROOT = path.join(__dirname, '..', '..');
const PROGRAMS = path.join(ROOT, 'test', 'fixtures', 'hostile', 'programs');

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One hostile program's copy: its folder, its file, and the token that marks everything it starts. */
export interface HostileCopy {
  readonly token: string;
  readonly dir: string;
  readonly file: string;
}

/** A hash of every file under `dir` (names and contents): equal before and after means nothing changed. */
export function hashTree(dir: string): string {
  const hash = createHash('sha256');
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(at, entry.name);
      hash.update(path.relative(dir, full));
      if (entry.isDirectory()) walk(full);
      else hash.update(fs.readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

export class HostileHarness {
  readonly tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-hostile-'));
  readonly cli = path.join(this.tmp, 'dist', 'cli.js');
  readonly pack = path.join(this.tmp, 'pack');
  /** The checker's own TMPDIR: what it leaves there (transpile folders, run folders) shows here. */
  readonly tmpdir = path.join(this.tmp, 'tmpdir');
  readonly home = path.join(this.tmp, 'home');
  /** What a grader keeps in the environment: it must never reach an output. */
  readonly secret = `secret-${randomBytes(8).toString('hex')}`;
  /** The interpreter itself, not a version manager's shim: a shim costs a shell per start. */
  readonly python =
    execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';

  constructor(readonly sandbox: string) {}

  async build(): Promise<void> {
    fs.mkdirSync(this.tmpdir);
    fs.mkdirSync(this.home);
    fs.mkdirSync(path.join(this.tmp, 'installed'));
    fs.cpSync(path.join(ROOT, 'lessons', 'least-connections'), this.pack, { recursive: true });
    await buildCliBundle(this.cli);
  }

  dispose(): void {
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }

  /** A copy of `program` in a folder of its own, its placeholders filled in. */
  copy(program: string, fill: Record<string, string> = {}): HostileCopy {
    const token = `hostile-${randomBytes(6).toString('hex')}`;
    const dir = path.join(this.tmp, token);
    fs.mkdirSync(dir);
    let text = fs
      .readFileSync(path.join(PROGRAMS, program), 'utf8')
      .replaceAll('HOSTILE_MARKER', token)
      .replaceAll('PACK_DIR', this.pack);
    for (const [placeholder, value] of Object.entries(fill)) text = text.replaceAll(placeholder, value);
    const file = path.join(dir, program);
    fs.writeFileSync(file, text);
    return { token, dir, file };
  }

  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: this.home,
      TMPDIR: this.tmpdir,
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
      GRADER_TOKEN: this.secret,
      LESSON_COMPANION_PACKS: path.join(this.tmp, 'installed'),
      // The checker's own cache lives outside the home, so an empty home means the program wrote nothing there.
      LESSON_COMPANION_CACHE_DIR: path.join(this.tmp, 'checker-cache'),
      LESSON_COMPANION_SANDBOX: this.sandbox,
      ...(process.env.LESSON_COMPANION_SANDBOX_TOOL
        ? { LESSON_COMPANION_SANDBOX_TOOL: process.env.LESSON_COMPANION_SANDBOX_TOOL }
        : {}),
      ...extra,
    };
  }

  /** `lesson-companion check <copy> --json` against the pack copy; the CLI is killed only after 100 s. */
  check(
    copy: HostileCopy,
    args: string[] = [],
    env: NodeJS.ProcessEnv = {},
  ): Promise<CliRun & { report?: CheckReport }> {
    return new Promise((resolve) => {
      const argv = [this.cli, 'check', copy.file, '--lesson', this.pack, '--json', '--python', this.python, ...args];
      execFile(
        process.execPath,
        argv,
        { cwd: this.tmp, env: this.env(env), timeout: 100_000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
          let report: CheckReport | undefined;
          try {
            report = JSON.parse(stdout) as CheckReport;
          } catch {
            report = undefined;
          }
          resolve({ code, signal: error?.signal ?? null, stdout, stderr, ...(report ? { report } : {}) });
        },
      );
    });
  }

  /** The CLI started with piped stdio, for tests that signal it or talk to `run`. */
  start(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
    return spawn(process.execPath, [this.cli, ...args], {
      cwd: this.tmp,
      env: this.env(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  }

  /** Entries the checker left in its TMPDIR (transpile and run folders): none once it has exited. */
  leftovers(): string[] {
    return fs.readdirSync(this.tmpdir);
  }
}

/** The exit of a started CLI, with everything it printed. */
export function exited(child: ChildProcess): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}
