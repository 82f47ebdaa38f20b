// npm run bench:trace [-- --runs N]
//
// What line tracing (src/node/run/lineTrace.ts) costs next to a plain run of the same program, on the same
// 6-command transcript (the one test/node/lineTrace.test.ts uses), through the engine's own runProcess:
//
//   plain    runProcess(python3 prog.py) / runProcess(node prog.js)
//   traced   traceCommandLines(): the same program under sys.settrace / the inspector's block coverage
//
// Programs: test/fixtures/trace/least-connections/{python,javascript}/delegates-tiebreak.*. Each is measured
// N times (default 10), plain and traced interleaved so that a busy machine slows both alike; medians are
// reported with the ratio. Nothing here is asserted by the tests.
//
// Like scripts/bench.mjs, this bundles the functions it needs with esbuild into a temp folder.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'trace', 'least-connections');
const runsArg = process.argv.indexOf('--runs');
const RUNS = Math.max(1, Number(runsArg > 0 ? process.argv[runsArg + 1] : (process.env.BENCH_RUNS ?? 10)) || 10);
const PYTHON =
  process.env.PYTHON ??
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
const COMMANDS = ['POOL a b d c', 'PICK', 'PICK', 'DONE b', 'PICK', 'PICK'];
const ANSWERS = [['OK'], ['a'], ['b'], ['OK'], ['b'], ['c']];
const LIMITS = { timeLimitMs: 10000, outputLimitBytes: 1024 * 1024 };

async function buildEngine() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lesson-companion-bench-trace-'));
  const outfile = path.join(dir, 'engine.cjs');
  const src = (p) => JSON.stringify(path.join(ROOT, 'src', p));
  await esbuild.build({
    stdin: {
      contents: [
        `export { traceCommandLines } from ${src('node/lineTrace')};`,
        `export { runProcess } from ${src('node/runner')};`,
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  return { dir, engine: createRequire(import.meta.url)(outfile) };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function main() {
  const { dir, engine } = await buildEngine();
  try {
    const input = COMMANDS.map((c) => `${c}\n`).join('');
    const expected = ANSWERS.flat().join('\n') + '\n';
    const programs = [
      { language: 'python', command: PYTHON, file: path.join(FIXTURES, 'python', 'delegates-tiebreak.py') },
      {
        language: 'javascript',
        command: process.execPath,
        file: path.join(FIXTURES, 'javascript', 'delegates-tiebreak.js'),
      },
    ];
    console.log(
      `lesson-companion line-tracing benchmark: ${COMMANDS.length}-command transcript, ${RUNS} runs each, medians`,
    );
    console.log(
      `node ${process.version}, ${PYTHON}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log('');
    const rows = [['program', 'plain ms', 'traced ms', 'traced / plain', 'extra ms']];
    for (const program of programs) {
      const spec = { command: program.command, args: [program.file], cwd: path.dirname(program.file), ...LIMITS };
      const plain = async () => {
        const result = await engine.runProcess(spec, input);
        if (result.stdout !== expected)
          throw new Error(`${program.file}: unexpected answers ${JSON.stringify(result.stdout)}`);
      };
      const traced = async () => {
        const trace = await engine.traceCommandLines({
          language: program.language,
          spec,
          files: [{ run: program.file, source: program.file }],
          commands: COMMANDS,
          answers: ANSWERS,
        });
        if (!trace || trace.perCommand.some((lines) => lines === undefined))
          throw new Error(`${program.file}: the trace failed`);
      };
      await plain();
      await traced(); // warm-up: file cache, bytecode
      const times = { plain: [], traced: [] };
      for (let i = 0; i < RUNS; i++) {
        times.plain.push(await timed(plain));
        times.traced.push(await timed(traced));
      }
      const p = median(times.plain);
      const t = median(times.traced);
      rows.push([
        path.relative(ROOT, program.file),
        p.toFixed(1),
        t.toFixed(1),
        `${(t / p).toFixed(2)}x`,
        (t - p).toFixed(1),
      ]);
    }
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const [i, row] of rows.entries()) {
      console.log(
        '  ' + row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('   '),
      );
      if (i === 0) console.log('  ' + widths.map((w) => '-'.repeat(w)).join('   '));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
