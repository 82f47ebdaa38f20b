/**
 * A real npm registry on loopback for the tests: Verdaccio (a dev dependency) with a temporary storage folder,
 * no uplinks (it never reaches the internet), anonymous publish, on 127.0.0.1 and a free port. `stop()` ends
 * it; it is also ended when the test process exits, whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const VERDACCIO = path.join(ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio');

/**
 * Verdaccio's command line, run by a script that also ends it when this test process is gone (its parent
 * changes): a test run killed outright (SIGKILL, a CI timeout) leaves no registry behind.
 */
const ORPHAN_GUARD = `
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 500).unref();
  require(process.argv[1]);`;

export interface LoopbackRegistry {
  readonly url: string;
  /** An npm user config that lets npm publish to it (Verdaccio takes any token from anonymous publishers). */
  readonly npmrc: string;
  readonly log: () => string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Verdaccio exited (${child.exitCode}) before serving:\n${log()}`);
    const ok = await fetch(`${url}-/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Verdaccio did not answer at ${url} within 60 s:\n${log()}`);
}

export async function startLoopbackRegistry(dir: string): Promise<LoopbackRegistry> {
  fs.mkdirSync(path.join(dir, 'storage'), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = path.join(dir, 'config.yaml');
  fs.writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
      '    max_users: -1',
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $anonymous',
      '    publish: $anonymous',
      '    unpublish: $anonymous',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const npmrc = path.join(dir, 'publish.npmrc');
  fs.writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=anonymous\n`);
  let output = '';
  const child = spawn(
    process.execPath,
    ['-e', ORPHAN_GUARD, VERDACCIO, '--config', config, '--listen', `127.0.0.1:${port}`],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', kill);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(kill, 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilServing(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, npmrc, log: () => output, stop };
}
