/**
 * A pack brings its own reference model, which is code: hostile or broken models, through the real CLI
 * (dist/cli.js, whose checks run the model in the engine worker under Node's permission model and, where
 * bubblewrap exists, without network). Each must end with words that name the pack and its model, in a
 * bounded time, with the learner's file untouched and nothing written, started or reached outside.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createPack } from '../../src/node/authoring/scaffold';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SOLUTION = path.join(ROOT, 'test', 'fixtures', 'packs', 'solutions', 'balancer.py');
const PICK_LINE = "    if (verb === 'PICK') return pick(state, on, observed);";

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({
          code: error ? ((error as { code?: number }).code ?? null) : 0,
          stdout,
          stderr,
          ms: performance.now() - started,
        });
      },
    );
  });
}

describe('a pack that brings its own model: hostile and broken models', function () {
  this.timeout(180_000);
  let tmp: string;
  let learner: string;

  /** The scaffold pack with its model's text edited. */
  async function packWith(name: string, edit: (model: string) => string): Promise<string> {
    const { dir } = await createPack(path.join(tmp, name), 'demo');
    const file = path.join(dir, 'model', 'model.js');
    const text = await fs.readFile(file, 'utf8');
    const edited = edit(text);
    assert.notEqual(edited, text, `${name}: the edit applies`);
    await fs.writeFile(file, edited);
    return dir;
  }

  before(async () => {
    await fs.access(CLI).catch(() => assert.fail('build first: node esbuild.mjs (the test runs the built CLI)'));
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-pack-model-'));
    learner = path.join(tmp, 'balancer.py');
    await fs.copyFile(SOLUTION, learner);
  });
  after(() => fs.rm(tmp, { recursive: true, force: true }));

  it("checks a correct program with the scaffold pack's own model (the baseline the cases below break)", async () => {
    const dir = await packWith('plain', (m) =>
      m.replace('PICK does not count the chosen backend', 'PICK does not count the chosen backend at once'),
    );
    const run = await cli(['check', learner, '--lesson', dir, '--json']);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.equal(JSON.parse(run.stdout).status, 'pass');
  });

  const broken: [string, string, RegExp][] = [
    ['loops', "    if (verb === 'PICK') { for (;;) {} }", /computed for more than 3 s without a result/],
    [
      'throws',
      "    if (verb === 'PICK') throw new Error('broken at PICK');",
      /failed in step\("PICK"\): broken at PICK/,
    ],
    [
      'allocates',
      "    if (verb === 'PICK') { const hoard = []; for (;;) hoard.push(new Array(100000).fill(7)); }",
      /ran out of memory/,
    ],
  ];
  for (const [name, line, words] of broken) {
    it(`a model that ${name}: a clear error naming the pack and its model, the learner's file untouched`, async () => {
      const dir = await packWith(name, (m) => m.replace(PICK_LINE, line));
      const before = await fs.readFile(learner, 'utf8');
      const run = await cli(['check', learner, '--lesson', dir, '--json'], {
        LESSON_COMPANION_ENGINE_QUIET_MS: '3000',
      });
      assert.equal(run.code, 1, run.stderr);
      const report = JSON.parse(run.stdout);
      assert.equal(report.status, 'error');
      assert.ok(report.durationMs > 0, 'the report says how long the check ran before the model failed');
      const problem = report.problems.find((p: { kind: string }) => p.kind === 'model-error');
      assert.ok(problem, run.stdout);
      assert.match(problem.message, words);
      assert.match(problem.advice, /lesson pack "demo".*model\/model\.js.*not of your program/);
      assert.equal(await fs.readFile(learner, 'utf8'), before);
      assert.ok(run.ms < 60_000, `${Math.round(run.ms)} ms`);
    });
  }

  it('a model that tries to escape its vm context cannot (no host object reaches it), and is held by the engine process too: no file written, no process started, no connection made', async () => {
    const written = path.join(tmp, 'model-wrote-this');
    const spawned = path.join(tmp, 'model-spawned-this');
    const server = net.createServer((socket) => socket.destroy());
    let connections = 0;
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const escape = `
const tried = {};
try {
  const host = require.constructor('return process')();
  const load = host.mainModule.require.bind(host.mainModule);
  try { load('fs').writeFileSync(${JSON.stringify(written)}, 'x'); tried.write = 'done'; } catch (e) { tried.write = e.code; }
  try { load('child_process').spawnSync('touch', [${JSON.stringify(spawned)}]); tried.spawn = 'done'; } catch (e) { tried.spawn = e.code; }
  try { load('net').connect(${port}, '127.0.0.1').on('error', () => {}); tried.net = 'tried'; } catch (e) { tried.net = e.code; }
} catch (e) { tried.escape = String(e); }
`;
    // The model reports what its attempts met by failing at the first PICK with it: the report carries it.
    const dir = await packWith(
      'escapes',
      (m) =>
        `${escape}\n${m.replace(PICK_LINE, "    if (verb === 'PICK') throw new Error('tried ' + JSON.stringify(tried));\n" + PICK_LINE)}`,
    );
    try {
      const run = await cli(['check', learner, '--lesson', dir, '--json']);
      const problem = JSON.parse(run.stdout).problems.find((p: { kind: string }) => p.kind === 'model-error');
      const tried = JSON.parse(/tried (\{.*?\})/.exec(problem?.message ?? '')?.[1] ?? '{}') as Record<string, string>;
      // Its `require` is a function of its own realm (realmBridge.ts), whose Function compiles no strings.
      assert.match(tried.escape ?? '', /Code generation from strings disallowed/, JSON.stringify(tried));
      assert.equal(tried.write, undefined);
      assert.equal(tried.spawn, undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(
        await fs.access(written).then(
          () => true,
          () => false,
        ),
        false,
        'no file written',
      );
      assert.equal(
        await fs.access(spawned).then(
          () => true,
          () => false,
        ),
        false,
        'no process started',
      );
      assert.equal(connections, 0, 'no connection made');
    } finally {
      server.close();
    }
  });

  it('validate refuses a model that answers differently on two runs, naming the file and line', async () => {
    const dir = await packWith('random', (m) =>
      m.replace(
        PICK_LINE,
        "    if (verb === 'PICK' && Math.random() < 0.5) return { state, answer: lines('EMPTY') };\n" + PICK_LINE,
      ),
    );
    const run = await cli(['validate', dir]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /model\/model\.js:\d+.*step\(\) answers differently on two runs of the same commands/);
  });

  it('validate refuses a mutation that changes nothing, at the line that declares it', async () => {
    const dir = await packWith('inert', (m) =>
      m.replace(
        "    { id: 'empty-crash', description: 'PICK on an empty pool crashes' },",
        "    { id: 'empty-crash', description: 'PICK on an empty pool crashes' },\n    { id: 'does-nothing', description: 'a mistake the model never makes' },",
      ),
    );
    const run = await cli(['validate', dir]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const text = await fs.readFile(path.join(dir, 'model', 'model.js'), 'utf8');
    const line = text.split('\n').findIndex((l) => l.includes("'does-nothing'")) + 1;
    assert.match(run.stdout, new RegExp(`model/model\\.js:${line}\\b.*mutation "does-nothing" changes no answer`));
  });
});
