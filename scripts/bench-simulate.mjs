// npm run bench:simulate [-- --runs N]
//
// What driving a learner's program line by line costs (the load simulation, src/node/check/simulator.ts) next to
// running the same program over the same commands fed at once. Program: test/fixtures/least-connections/
// python/correct.py; scenario: lesson least-connections' `slow-server` (20 ticks, 240 requests).
//
//   simulate   simulateFile(): the learner's contained process driven request by request (one round trip
//              per request), plus round robin and the reference (in this process, as tests do)
//   bare       the same contained launch, run once with every command the simulation sent, written at once
//   plain      python3 prog.py < the same commands, no containment (for scale only)
//
// Each is measured N times (default 7), interleaved so that a busy machine slows all alike; medians are
// reported, with the ratio simulate / bare (target <= 3x) and the per-answer round trip (the time from
// writing a pick, with the reports held back before it, to reading its answer). Nothing here is asserted by
// the tests. Like scripts/bench.mjs, this bundles what it needs with esbuild into a temp folder.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROGRAM = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const SCENARIO = 'slow-server';
const runsArg = process.argv.indexOf('--runs');
const RUNS = Math.max(1, Number(runsArg > 0 ? process.argv[runsArg + 1] : (process.env.BENCH_RUNS ?? 7)) || 7);
const PYTHON =
  process.env.PYTHON ??
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

async function buildEngine() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lesson-companion-bench-'));
  const outfile = path.join(dir, 'engine.cjs');
  const src = (p) => JSON.stringify(path.join(ROOT, 'src', p));
  await esbuild.build({
    stdin: {
      contents: [
        `export { simulateFile } from ${src('node/simulator')};`,
        `export { loadPack } from ${src('node/packs')};`,
        `export { containProgram } from ${src('node/contain')};`,
        `export { prepareProgram } from ${src('node/languages')};`,
        `export { sandboxSettingFromEnv } from ${src('node/sandbox')};`,
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  return { dir, engine: createRequire(import.meta.url)(outfile) };
}

function runPlain(input) {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [PROGRAM], { cwd: path.dirname(PROGRAM), stdio: ['pipe', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${PYTHON} exited with ${code}`)),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const { dir, engine } = await buildEngine();
  try {
    const pack = await engine.loadPack(LESSON, 'built-in', { model: true });
    const options = { scenario: SCENARIO, interpreters: { python: PYTHON } };
    // The commands a whole run sends, recorded from a real simulation: the bare runs get exactly these.
    const first = await engine.simulateFile(pack, PROGRAM, 'python', options);
    if (first.result.runs.yours.stopped) throw new Error(`the simulation stopped: ${first.result.sentence}`);
    const input = `${first.transcript.join('\n')}\n`;
    const program = await engine.prepareProgram('python', PROGRAM, { python: PYTHON, node: process.execPath });
    const launch = await engine.containProgram(program, {
      setting: engine.sandboxSettingFromEnv(),
      hidden: [pack.dir],
    });
    const answers = first.transcript.length;

    const roundTrips = [];
    const measurements = {
      simulate: async () => {
        const outcome = await engine.simulateFile(pack, PROGRAM, 'python', options);
        if (outcome.result.runs.yours.stopped) throw new Error(outcome.result.sentence);
        roundTrips.push(outcome.stats.waitingMs / outcome.stats.exchanges);
        return outcome.stats.exchanges;
      },
      bare: async () => {
        const result = await launch.run(input, { timeLimitMs: 30_000, outputLimitBytes: 1024 * 1024 });
        const lines = result.stdout.split('\n').length - 1;
        if (lines !== answers) throw new Error(`the bare run answered ${lines} lines of ${answers}: ${result.stderr}`);
        return 1;
      },
      plain: async () => {
        await runPlain(input);
        return 1;
      },
    };
    const names = Object.keys(measurements);
    for (const name of names) await measurements[name](); // warm-up: file cache, bytecode
    roundTrips.length = 0;
    const times = Object.fromEntries(names.map((n) => [n, []]));
    const writes = {};
    for (let i = 0; i < RUNS; i++) {
      for (const name of names) {
        const started = performance.now();
        writes[name] = await measurements[name]();
        times[name].push(performance.now() - started);
      }
    }
    const med = Object.fromEntries(names.map((n) => [n, median(times[n])]));
    const load = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    console.log(`lesson-companion simulate benchmark: ${path.relative(ROOT, PROGRAM)}, scenario ${SCENARIO}`);
    console.log(
      `${first.result.runs.yours.ticks.length} ticks, ${first.transcript.filter((c) => c === 'PICK').length} requests, ${answers} commands; containment: ${first.containment ?? 'none'}`,
    );
    console.log(
      `node ${process.version}, ${PYTHON}, ${os.cpus().length} cores, load average ${load}, ${RUNS} runs each, medians`,
    );
    console.log('');
    const rows = [
      ['measurement', 'median ms', 'min ms', 'max ms', 'writes'],
      ...names.map((n) => [
        n,
        med[n].toFixed(1),
        Math.min(...times[n]).toFixed(1),
        Math.max(...times[n]).toFixed(1),
        String(writes[n]),
      ]),
    ];
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const [i, row] of rows.entries()) {
      console.log(
        '  ' + row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('   '),
      );
      if (i === 0) console.log('  ' + widths.map((w) => '-'.repeat(w)).join('   '));
    }
    console.log('');
    const ratio = med.simulate / med.bare;
    console.log(
      `  ${'simulate / bare'.padEnd(27)} ${ratio.toFixed(3)}x   target <= 3x   ${ratio <= 3 ? 'ok' : 'MISSED'}`,
    );
    console.log(
      `  ${'round trip per answer'.padEnd(27)} ${(median(roundTrips) * 1000).toFixed(0)} µs (median of ${roundTrips.length} runs; write to answer)`,
    );
    console.log(
      `  ${'extra per request'.padEnd(27)} ${(((med.simulate - med.bare) / writes.simulate) * 1000).toFixed(0)} µs ((simulate - bare) / round trips)`,
    );
    await program.dispose();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
