// npm run bench [-- --runs N]
//
// How much a full check costs next to simply running the learner's program, on one program
// (test/fixtures/least-connections/python/correct.py) and one input set (lesson least-connections' hidden
// transcripts plus the check's own generated ones, for the lesson's default seed):
//
//   ours            checkFile(): the whole check, as the CLI and the extension run it
//   per-transcript  one `python3 prog.py` per transcript, fed its commands (what a naive grader does)
//   bare            one `python3 prog.py < every transcript concatenated` (the floor: no checking at all)
//
// Each is measured N times, interleaved so that a busy machine slows all three alike; medians are reported.
// Targets: ours <= 0.2 x per-transcript, ours <= 1.5 x bare. Nothing here is asserted by the tests.
//
// The engine is TypeScript; this script bundles the few functions it needs with esbuild's JS API into a
// temp folder and requires that bundle, so it needs neither tsx nor a build of dist/.
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
const runsArg = process.argv.indexOf('--runs');
const RUNS = Math.max(1, Number(runsArg > 0 ? process.argv[runsArg + 1] : process.env.BENCH_RUNS ?? 7) || 7);
// All three measurements use the same interpreter, by its real path: `python3` on PATH may be a version
// manager's shell shim (pyenv) that costs more than Python itself to start, which would flatter "ours".
const PYTHON = process.env.PYTHON ?? execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

async function buildEngine() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lesson-companion-bench-'));
  const outfile = path.join(dir, 'engine.cjs');
  const src = (p) => JSON.stringify(path.join(ROOT, 'src', p));
  await esbuild.build({
    stdin: {
      contents: [
        `export { checkFile } from ${src('node/checker')};`,
        `export { loadPack } from ${src('node/packs')};`,
        `export { runProcess } from ${src('node/runner')};`,
        `export { check, defaultSeed } from ${src('core/check')};`,
        `export { seededRandom } from ${src('core/random')};`,
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // jsonc-parser's UMD main hides its requires from esbuild; its ESM build bundles cleanly (as in esbuild.mjs).
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  return { dir, engine: createRequire(import.meta.url)(outfile) };
}

/** Runs `python3 PROGRAM` once with this stdin; resolves with its stdout. */
function runPython(input) {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [PROGRAM], { cwd: path.dirname(PROGRAM), stdio: ['pipe', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${PYTHON} exited with ${code}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

async function timed(fn) {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const { dir, engine } = await buildEngine();
  try {
    const pack = await engine.loadPack(LESSON);
    const { manifest, model } = pack;
    const seed = engine.defaultSeed(manifest);

    // The input set: hidden transcripts, then the generated ones exactly as check() makes them for this seed.
    const hidden = pack.transcripts.map((t) => t.steps.map((s) => s.command));
    const random = engine.seededRandom(seed);
    const count = manifest.fuzz?.transcripts ?? 40;
    const length = manifest.fuzz?.length ?? 16;
    const generated = Array.from({ length: count }, () => model.generate(random, 2 + random.int(Math.max(length - 1, 1))));
    const lists = [...hidden, ...generated];
    const batchInput = lists.map((commands) => [model.resetCommand, ...commands].join('\n')).join('\n') + '\n';

    // Prove it is the same set: record what a real check sends the program (one process for a correct one).
    const inputs = [];
    const source = fs.readFileSync(PROGRAM, 'utf8');
    const recorded = await engine.check({
      manifest,
      model,
      transcripts: pack.transcripts,
      language: 'python',
      file: PROGRAM,
      fileName: path.basename(PROGRAM),
      source,
      clock: () => performance.now(),
      options: { seed, timeLimitMs: 5000, outputLimitBytes: 1024 * 1024, interpreter: PYTHON },
      execute: (input) => {
        inputs.push(input);
        return engine.runProcess({ command: PYTHON, args: [PROGRAM], cwd: path.dirname(PROGRAM), timeLimitMs: 5000, outputLimitBytes: 1024 * 1024 }, input);
      },
    });
    if (recorded.status !== 'pass' || inputs.length !== 1) throw new Error(`expected one passing run of ${PROGRAM}, got ${recorded.status} in ${inputs.length} runs`);
    if (inputs[0] !== batchInput) throw new Error('the benchmark input differs from what check() sends: update scripts/bench.mjs to match src/core/check.ts');
    const perTranscriptInputs = lists.map((commands) => commands.join('\n') + '\n');

    const measurements = {
      ours: async () => {
        const report = await engine.checkFile(pack, PROGRAM, 'python', { interpreters: { python: PYTHON } });
        if (report.status !== 'pass') throw new Error(`check did not pass: ${report.status}`);
        return report.processRuns;
      },
      'per-transcript': async () => {
        for (const input of perTranscriptInputs) await runPython(input);
        return perTranscriptInputs.length;
      },
      bare: async () => {
        await runPython(batchInput);
        return 1;
      },
    };
    const names = Object.keys(measurements);
    for (const name of names) await measurements[name](); // warm-up: file cache, bytecode, JIT
    const times = Object.fromEntries(names.map((n) => [n, []]));
    const processes = {};
    for (let i = 0; i < RUNS; i++) {
      for (const name of names) {
        const { ms, value } = await timed(measurements[name]);
        times[name].push(ms);
        processes[name] = value;
      }
    }

    const med = Object.fromEntries(names.map((n) => [n, median(times[n])]));
    const commands = lists.reduce((n, l) => n + l.length, 0);
    const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
    console.log(`lesson-companion benchmark: ${path.relative(ROOT, PROGRAM)}`);
    console.log(`input: ${hidden.length} hidden + ${generated.length} generated transcripts (seed ${seed}), ${commands} commands`);
    console.log(`node ${process.version}, ${PYTHON}, ${os.cpus().length} cores, load average ${load}, ${RUNS} runs each, medians`);
    console.log('');
    const rows = [
      ['measurement', 'median ms', 'min ms', 'max ms', 'processes'],
      ...names.map((n) => [n, med[n].toFixed(1), Math.min(...times[n]).toFixed(1), Math.max(...times[n]).toFixed(1), String(processes[n])]),
    ];
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const [i, row] of rows.entries()) {
      console.log('  ' + row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('   '));
      if (i === 0) console.log('  ' + widths.map((w) => '-'.repeat(w)).join('   '));
    }
    console.log('');
    const ratio = (a, b, target) => {
      const r = med[a] / med[b];
      return `  ${`${a} / ${b}`.padEnd(27)} ${r.toFixed(3)}x   target <= ${target}x   ${r <= target ? 'ok' : 'MISSED'}`;
    };
    console.log(ratio('ours', 'per-transcript', 0.2));
    console.log(ratio('ours', 'bare', 1.5));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
