/**
 * The package as npm ships it: `npm pack` in the repository (its `prepack` builds dist/), then a real
 * `npm install --global` of what came out into an empty prefix, and the installed command run from a folder
 * outside the repository, so nothing it loads can come from the repository's node_modules. Shared by the
 * tarball test and the loopback-registry test.
 */
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');
export const PYTHON_FIXTURES = path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections', 'python');

export interface Packed {
  readonly tarball: string;
  readonly version: string;
  readonly integrity: string;
  readonly files: readonly string[];
}

/** `npm pack` of the repository into `into`: its `prepack` script runs, as it does for `npm publish`. */
export function npmPack(into: string): Packed {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', into], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: npmEnv(into),
  });
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as {
    filename: string;
    version: string;
    integrity: string;
    files: { path: string }[];
  }[];
  return {
    tarball: path.join(into, packed!.filename),
    version: packed!.version,
    integrity: packed!.integrity,
    files: packed!.files.map((f) => f.path),
  };
}

/** npm with its cache and its user config in `home`: nothing this machine's npm has cached or set is used. */
export function npmEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env))
    if (/^npm_/i.test(key) || key === 'NODE_PATH' || key === 'NODE_OPTIONS') delete env[key];
  return {
    ...env,
    npm_config_cache: path.join(home, '.npm-cache'),
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** A real `npm install --global <spec>` into `prefix` (an empty folder); `args` adds e.g. --offline or --registry. */
export function npmInstallGlobal(spec: string, prefix: string, home: string, args: string[] = []): string {
  fs.mkdirSync(prefix, { recursive: true });
  return execFileSync('npm', ['install', '--global', '--prefix', prefix, ...args, spec], {
    cwd: home,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: npmEnv(home),
  });
}

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The installed `lesson-companion` (prefix/bin first on the PATH; the rest of the PATH kept for python3 and
 * bwrap), with HOME and the installed-packs folder in `home`, so only the package's own lessons are found.
 */
export function runInstalled(
  prefix: string,
  home: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Ran> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: home,
    LESSON_COMPANION_PACKS: path.join(home, 'packs'),
    NO_COLOR: '1',
    ...env,
  };
  delete childEnv.NODE_PATH;
  delete childEnv.NODE_OPTIONS;
  return new Promise((resolve) => {
    execFile('lesson-companion', args, { cwd, env: childEnv }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** A scratch git repository holding one learner file, as a student's Classroom repository does. */
export function scratchRepository(dir: string, program: string, as = 'balancer.py'): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(PYTHON_FIXTURES, program), path.join(dir, as));
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=student', '-c', 'user.email=student@example.com', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'my balancer');
  return git('rev-parse', 'HEAD').trim();
}
