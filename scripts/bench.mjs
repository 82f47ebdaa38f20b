// npm run bench [-- --runs N]
//
// The speed budgets, each measured as the learner meets it: the whole `lesson-companion check` process
// (dist/cli.js, built first), on this machine's Python, against the least-connections lesson. Every row
// prints what was measured, its budget and "ok" or "MISSED". Times are medians of N runs, taken round-robin
// so that a busy machine slows every row alike; ratios compare medians taken in the same rounds.
//
//   CLI start             `lessons` against `node -e 0`
//   correct program       the whole check against one process per hidden transcript (an autograder's way)
//   one / two mistakes    process runs and time
//   random ties           process runs against the deterministic wrong tiebreak (at most 4 more)
//   leaked state, flood   process runs and time
//   hang                  time until the stall is named (the limit is 5 s; a stall is ~1 s without answers)
//   real-style corpus     every program of test/fixtures/real-style checked once, the slowest against 3 s
//   memory                peak resident memory of the check's whole process tree with --fuzz 4000
//   engine worker         checkFile() through the worker against the same diagnosis in this process
//
// Nothing here is asserted by the tests; the README's figures come from this output. `--sample` runs every row once
// on a tiny sample (no warm-up round, --fuzz 400, 12 service checks, 3 corpus programs) so that a test can see the
// bench still runs (test/node/bench.test.ts); its figures are not the budgets'.
import { serviceRows } from './bench-service.mjs';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const FIXTURES = path.join(ROOT, 'test', 'fixtures');
const program = (rel) => path.join(FIXTURES, rel);
const runsArg = process.argv.indexOf('--runs');
const SAMPLE = process.argv.includes('--sample');
const RUNS = SAMPLE
  ? 1
  : Math.max(1, Number(runsArg > 0 ? process.argv[runsArg + 1] : (process.env.BENCH_RUNS ?? 5)) || 5);
const CORPUS = path.join(FIXTURES, 'real-style');
// Every measurement uses the same interpreter by its real path: `python3` on PATH may be a version manager's
// shim (pyenv) that costs more than Python itself to start.
const PYTHON =
  process.env.PYTHON ??
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

const PROGRAMS = {
  correct: program('least-connections/python/correct.py'),
  oneMistake: program('least-connections/python/late-increment.py'),
  twoMistakes: program('least-connections/python/pair-tiebreak-negative.py'),
  deterministicTie: program('least-connections/python/tiebreak-last.py'),
  randomTie: program('real-style/least-connections/python/random_choice_ties.py'),
  leak: program('least-connections/python/stale-state.py'),
  flood: program('least-connections/python/flood.py'),
  hang: program('least-connections/python/hang.py'),
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Memory of a process and all its descendants, in bytes, from /proc (zeros where there is none): `rss` adds
 * each process's resident set, so pages two processes share (the Node binary under the CLI and its engine
 * worker) count twice; `pss` splits each shared page among the processes that share it.
 */
function treeMemory(rootPid) {
  let entries;
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return { rss: 0, pss: 0 };
  }
  const children = new Map();
  for (const pid of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(pid));
    } catch {
      // the process ended while we looked
    }
  }
  const total = { rss: 0, pss: 0 };
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      total.rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
      total.pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      // ended, or not ours to read
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Starts a process; resolves with its wall time, stdout, exit code and (if asked) the tree's peak memory. */
function timedProcess(command, args, { input, env, sampleMemory = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: env ?? process.env });
    const out = [];
    const err = [];
    const peak = { rss: 0, pss: 0 };
    const sampler = sampleMemory
      ? setInterval(() => {
          const now = treeMemory(child.pid);
          peak.rss = Math.max(peak.rss, now.rss);
          peak.pss = Math.max(peak.pss, now.pss);
        }, 15)
      : undefined;
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (sampler) clearInterval(sampler);
      resolve({
        ms,
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        peak,
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** Every program of the real-style corpus, by its header's lesson (`# lesson-companion: <lesson>`). */
function corpusPrograms() {
  const found = [];
  for (const lesson of fs.readdirSync(CORPUS).sort()) {
    const dir = path.join(CORPUS, lesson);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const language of fs.readdirSync(dir).sort())
      for (const name of fs.readdirSync(path.join(dir, language)).sort()) {
        // A folder holds a program of several files (conn-counts): the module with the header is the one checked.
        const entry = path.join(dir, language, name);
        const file = fs.statSync(entry).isDirectory()
          ? fs
              .readdirSync(entry)
              .map((inner) => path.join(entry, inner))
              .find((inner) => fs.statSync(inner).isFile() && /lesson-companion:/.test(fs.readFileSync(inner, 'utf8')))
          : entry;
        if (!file) continue;
        if (/^\s*(?:#|\/\/)\s*lesson-companion:/m.test(fs.readFileSync(file, 'utf8').slice(0, 2000)))
          found.push({ lesson, file, id: `${lesson}/${language}/${name}` });
      }
  }
  return found;
}

/** The corpus checked once each, as a learner's CLI check: the slowest against 3 s, the three slowest named. */
async function corpusRows(check) {
  const programs = corpusPrograms();
  const sample = SAMPLE ? programs.filter((_, i) => i % Math.ceil(programs.length / 3) === 0) : programs;
  const timed = [];
  for (const p of sample) {
    const r = await check(p.file, ['--lesson', path.join(ROOT, 'lessons', p.lesson)]);
    const random = r.report.problems.some((problem) => problem.kind === 'nondeterministic');
    timed.push({ id: p.id, ms: r.ms, runs: r.report.processRuns, status: r.report.status, random });
  }
  timed.sort((a, b) => b.ms - a.ms);
  const slowest = timed[0];
  report(
    `real-style corpus: ${timed.length} programs checked once each, the slowest (${slowest.id})`,
    `${s(slowest.ms)}, ${slowest.runs} runs; ${timed.filter((t) => t.ms > 3000).length} over 3 s`,
    '≤ 3.00 s each',
    timed.every((t) => t.ms <= 3000),
    `slowest: ${timed
      .slice(0, 5)
      .map((t) => `${t.id} ${s(t.ms)} (${t.runs} runs, ${t.status})`)
      .join('; ')}`,
  );
  // The worst-case budgets over every failing program, not only the rows' chosen ones: a program that answers
  // the same on every run gets 8 runs and 1.5 s, one that answers at random 12 runs and 3 s.
  for (const [kind, maxRuns, maxMs, chosen] of [
    ['answering the same on every run', 8, 1500, timed.filter((t) => t.status === 'fail' && !t.random)],
    ['answering at random', 12, 3000, timed.filter((t) => t.status === 'fail' && t.random)],
  ]) {
    const over = chosen.filter((t) => t.runs > maxRuns || t.ms > maxMs);
    const most = [...chosen].sort((a, b) => b.runs - a.runs)[0];
    report(
      `real-style corpus, failing programs ${kind}: over ${maxRuns} runs or ${s(maxMs)}`,
      `${over.length} of ${chosen.length} (${chosen.filter((t) => t.runs > maxRuns).length} over the runs, ${chosen.filter((t) => t.ms > maxMs).length} over the time)${most ? `; most runs: ${most.id} ${most.runs}` : ''}`,
      `≤ ${maxRuns} runs, ≤ ${s(maxMs)} each`,
      over.length === 0,
      over.length === 0
        ? ''
        : `over: ${over
            .sort((a, b) => b.runs - a.runs)
            .slice(0, 6)
            .map((t) => `${t.id} ${t.runs} runs ${s(t.ms)}`)
            .join('; ')}`,
    );
  }
}

/** The whole CLI check of one program, as JSON. */
async function cliCheck(file, extra = [], options = {}) {
  const result = await timedProcess(
    process.execPath,
    [CLI, 'check', file, '--json', '--python', PYTHON, ...extra],
    options,
  );
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(
      `check ${path.relative(ROOT, file)} printed no report (exit ${result.code}): ${result.stderr.slice(0, 400)}`,
    );
  }
  return { ...result, report };
}

async function buildInProcessEngine() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lesson-companion-bench-'));
  const outfile = path.join(dir, 'engine.cjs');
  const src = (p) => JSON.stringify(path.join(ROOT, 'src', p));
  await esbuild.build({
    stdin: {
      contents: [
        `export { checkFile } from ${src('node/check/checker')};`,
        `export { PassingBatchStore } from ${src('node/check/fastPass')};`,
        `export { loadPack } from ${src('node/packs/packs')};`,
        `export { containProgram } from ${src('node/sandbox/contain')};`,
        `export { prepareProgram } from ${src('node/languages/languages')};`,
        `export { CheckServiceClient } from ${src('node/service/client')};`,
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
  // The model loader resolves the shipped queue world (lesson-companion/worlds/queues) as worlds/queues.js beside the
  // bundle that loads models (src/node/engine/modelLoader.ts): put the built one there, as dist/ has it.
  fs.mkdirSync(path.join(dir, 'worlds'));
  fs.copyFileSync(path.join(ROOT, 'dist', 'worlds', 'queues.js'), path.join(dir, 'worlds', 'queues.js'));
  return { dir, engine: createRequire(import.meta.url)(outfile) };
}

/** Runs `fn` RUNS times interleaved with the other rows (see rounds()); keeps every sample. */
function row(name, fn) {
  return { name, fn, samples: [] };
}

async function rounds(rows, runs) {
  if (!SAMPLE) {
    for (const r of rows) r.samples.push(await r.fn()); // warm-up: file cache, bytecode, the pack's passing batch
    for (const r of rows) r.samples.length = 0;
  }
  for (let i = 0; i < runs; i++) for (const r of rows) r.samples.push(await r.fn());
  return Object.fromEntries(
    rows.map((r) => [r.name, { ms: median(r.samples.map((s) => s.ms)), last: r.samples.at(-1), samples: r.samples }]),
  );
}

const results = [];
/** Findings printed under the table: measured, with no budget of their own. */
const notes = [];
function report(label, measured, budget, ok, note = '') {
  results.push({ label, measured, budget, verdict: ok ? 'ok' : 'MISSED', note });
}
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const x = (r) => `${r.toFixed(2)}×`;

/** The table of every row measured, then the notes. */
function printTable(startAndCorrect) {
  const load = os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
  console.log('');
  console.log(
    `lesson-companion bench${SAMPLE ? ' (--sample: a tiny sample, not the budgets)' : ''}: node ${process.version}, ${PYTHON}, ${os.cpus().length} cores, load average ${load}, medians of ${RUNS}`,
  );
  console.log(`containment: ${startAndCorrect.correct.last.report.containment ?? 'unknown'}`);
  console.log('');
  const table = [['row', 'measured', 'budget', ''], ...results.map((r) => [r.label, r.measured, r.budget, r.verdict])];
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => String(r[c]).length)));
  for (const [i, cells] of table.entries()) {
    console.log('| ' + cells.map((cell, c) => String(cell).padEnd(widths[c])).join(' | ') + ' |');
    if (i === 0) console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  }
  for (const r of results.filter((row) => row.note)) console.log(`\n${r.label}: ${r.note}`);
  for (const note of notes) console.log(`\n${note}`);
}

async function main() {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
  const { dir, engine } = await buildInProcessEngine();
  try {
    const pack = await engine.loadPack(LESSON, 'folder', { model: true });
    const perTranscriptInputs = pack.transcripts.map((t) => t.steps.map((step) => step.command).join('\n') + '\n');
    // A first check on a fresh machine: nothing kept yet (V8's code cache, the resolved interpreter, the pack's passing batch).
    const coldTmp = () => ({ ...process.env, LESSON_COMPANION_CACHE_DIR: fs.mkdtempSync(path.join(dir, 'cold-')) });

    // --service: only the check service's rows (6), for a quick look after a change to the service.
    if (process.argv.includes('--service')) {
      await serviceRows(engine, {
        ROOT,
        LESSON,
        PYTHON,
        PROGRAMS,
        RUNS,
        rounds,
        row,
        report,
        cliCheck,
        timedProcess,
        s,
        x,
        sample: SAMPLE,
      });
      return printTable({ correct: { last: { report: {} } } });
    }
    // 1. Start-up and the correct program, in the same rounds.
    const startAndCorrect = await rounds(
      [
        row('node -e 0', () => timedProcess(process.execPath, ['-e', '0'])),
        row('lessons', () => timedProcess(process.execPath, [CLI, 'lessons'])),
        row('correct', () => cliCheck(PROGRAMS.correct)),
        row('correct, first check', () => cliCheck(PROGRAMS.correct, [], { env: coldTmp() })),
        row('per transcript', async () => {
          const started = performance.now();
          for (const input of perTranscriptInputs) {
            const r = await timedProcess(PYTHON, [PROGRAMS.correct], { input });
            if (r.code !== 0) throw new Error(`correct.py exited with ${r.code}`);
          }
          return { ms: performance.now() - started };
        }),
      ],
      RUNS,
    );
    const m = (name) => startAndCorrect[name].ms;
    report(
      'CLI start: `lessons` / `node -e 0`',
      `${x(m('lessons') / m('node -e 0'))} (${m('lessons').toFixed(0)} / ${m('node -e 0').toFixed(0)} ms)`,
      '≤ 1.5×',
      m('lessons') / m('node -e 0') <= 1.5,
    );
    for (const name of ['correct', 'correct, first check']) {
      const r = startAndCorrect[name];
      if (r.last.report.status !== 'pass') throw new Error(`${name}: expected a pass, got ${r.last.report.status}`);
      const ratio = r.ms / m('per transcript');
      // No budget since the check service: the editor's checks no longer start the CLI (the rows under 6 hold those).
      notes.push(
        `CLI, ${name === 'correct' ? 'correct program (repeat check)' : 'correct program, first check (nothing cached)'}: whole check / ${perTranscriptInputs.length} processes, one per hidden transcript: ${x(ratio)} (${s(r.ms)} / ${s(m('per transcript'))}), ${r.last.report.processRuns} runs`,
      );
    }

    // 1b. NODE_EXTRA_CA_CERTS makes every Node process read and parse a certificate file as it starts (about
    //     70 ms here, where it names the system bundle): the rows above pay it in the CLI and in `node -e 0`,
    //     the Python baseline does not. The editor starts the CLI without it (node/nodeEnv.ts); shown here too.
    if (process.env.NODE_EXTRA_CA_CERTS) {
      const { NODE_EXTRA_CA_CERTS: _certificates, ...quiet } = process.env;
      const without = await rounds(
        [
          row('node -e 0', () => timedProcess(process.execPath, ['-e', '0'], { env: quiet })),
          row('lessons', () => timedProcess(process.execPath, [CLI, 'lessons'], { env: quiet })),
          row('correct', () => cliCheck(PROGRAMS.correct, [], { env: quiet })),
        ],
        RUNS,
      );
      const w = (name) => without[name].ms;
      notes.push(
        `NODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}): \`node -e 0\` takes ${m('node -e 0').toFixed(0)} ms with it and ${w('node -e 0').toFixed(0)} ms without. ` +
          `Without it: CLI start ${x(w('lessons') / w('node -e 0'))} (${w('lessons').toFixed(0)} / ${w('node -e 0').toFixed(0)} ms); correct program's repeat check ${x(w('correct') / m('per transcript'))} (${s(w('correct'))} / ${s(m('per transcript'))}), as the editor runs it.`,
      );
    }

    // 2. Programs with mistakes: process runs and time.
    const failing = await rounds(
      [
        row('one', () => cliCheck(PROGRAMS.oneMistake)),
        row('two', () => cliCheck(PROGRAMS.twoMistakes)),
        row('deterministic tie', () => cliCheck(PROGRAMS.deterministicTie)),
        row('random tie', () => cliCheck(PROGRAMS.randomTie)),
        row('leak', () => cliCheck(PROGRAMS.leak)),
        row('flood', () => cliCheck(PROGRAMS.flood)),
      ],
      RUNS,
    );
    const runsOf = (name) => failing[name].last.report.processRuns;
    const mistakes = (name) =>
      failing[name].last.report.mistakes.map((mk) => mk.id).join(' + ') ||
      failing[name].last.report.problems?.map((p) => p.kind).join(' + ') ||
      failing[name].last.report.status;
    const maxRuns = (name) => Math.max(...failing[name].samples.map((sample) => sample.report.processRuns));
    // Issue 31's worst-case budgets: any not-done program ≤ 8 runs and ≤ 1.5 s, a flood ≤ 4 runs and ≤ 2 s.
    for (const [name, label, runBudget, msBudget] of [
      ['one', 'one mistake (late increment)', 8, 1500],
      ['two', 'two mistakes (tiebreak + negative count)', 8, 1500],
      ['deterministic tie', 'a fixed wrong tiebreak (the last tied)', 8, 1500],
      ['leak', 'state leaking across POOL', 8, 1500],
      ['flood', 'a print loop that floods output', 4, 2000],
    ]) {
      const ms = failing[name].ms;
      const runs = maxRuns(name);
      report(
        `${label}: ${mistakes(name)}`,
        `${runs} run${runs === 1 ? '' : 's'}, ${s(ms)}`,
        `≤ ${runBudget} runs, ≤ ${s(msBudget)}`,
        runs <= runBudget && ms <= msBudget,
      );
    }
    const flood = failing.flood.last.report;
    const floodFirst = flood.problems[0]?.kind;
    report(
      'a flood is named as an output flood first, with no state-leak claim',
      `first: ${floodFirst ?? 'nothing'}; ${flood.problems.map((p) => p.kind).join(', ')}`,
      'output-limit first, no stale-state',
      floodFirst === 'output-limit' && !flood.problems.some((p) => p.kind === 'stale-state'),
    );
    const extra = maxRuns('random tie') - runsOf('deterministic tie');
    report(
      `random ties (random.choice) against a deterministic wrong tiebreak: ${mistakes('random tie')}`,
      `${maxRuns('random tie')} vs ${runsOf('deterministic tie')} runs (+${extra}), ${s(failing['random tie'].ms)}`,
      '≤ 4 more runs',
      extra <= 4,
    );
    report(
      `random ties (random.choice): ${mistakes('random tie')}`,
      `${maxRuns('random tie')} runs, ${s(failing['random tie'].ms)}`,
      '≤ 12 runs, ≤ 3.00 s',
      maxRuns('random tie') <= 12 && failing['random tie'].ms <= 3000,
    );

    // 3. The hang: fewer rounds, each costs seconds.
    const hang = await rounds([row('hang', () => cliCheck(PROGRAMS.hang))], Math.min(RUNS, 3));
    const hangProblem = hang.hang.last.report.problems?.[0];
    const hangRuns = Math.max(...hang.hang.samples.map((sample) => sample.report.processRuns));
    report(
      `a hang: ${hangProblem?.kind ?? hang.hang.last.report.status}`,
      `${hangRuns} run${hangRuns === 1 ? '' : 's'}, ${s(hang.hang.ms)}`,
      '≤ 3 runs, ≤ 2.50 s',
      hangRuns <= 3 && hang.hang.ms <= 2500,
      hangProblem?.message?.split('\n')[0] ?? '',
    );

    // 4. Memory: --fuzz 4000 on the correct program, peak of the whole process tree.
    const memory = await timedProcess(
      process.execPath,
      [CLI, 'check', PROGRAMS.correct, '--json', '--python', PYTHON, '--fuzz', SAMPLE ? '400' : '4000'],
      { sampleMemory: true, env: coldTmp() },
    );
    const memoryReport = JSON.parse(memory.stdout);
    const mb = (bytes) => bytes / 1024 / 1024;
    report(
      `memory: --fuzz 4000, whole process tree, peak (${memoryReport.status}, ${s(memory.ms)}); shared pages split (PSS) / counted in each process (RSS)`,
      `${mb(memory.peak.pss).toFixed(0)} MB / ${mb(memory.peak.rss).toFixed(0)} MB`,
      '< 120 MB',
      memory.peak.pss > 0 && mb(memory.peak.pss) < 120,
    );

    // 5. The engine worker against the same diagnosis in the checking process itself (as before issue 12):
    //    each in a fresh Node process that loads the engine and checks once, so both start cold.
    const bundle = path.join(ROOT, 'dist', 'engine.js');
    const runner = path.join(dir, 'check-once.cjs');
    fs.writeFileSync(
      runner,
      `const e = require(${JSON.stringify(path.join(dir, 'engine.cjs'))});
      (async () => {
        const [file, python, engine] = process.argv.slice(2);
        const pack = await e.loadPack(${JSON.stringify(LESSON)}, 'folder', { model: !engine });
        const r = await e.checkFile(pack, file, 'python', { interpreters: { python }, ...(engine ? { engine } : {}) });
        process.stdout.write(JSON.stringify({ status: r.status, mistakes: r.mistakes.map((m) => m.id), processRuns: r.processRuns }));
      })();`,
    );
    const checkOnce = (engineBundle) => async () => {
      const r = await timedProcess(process.execPath, [
        runner,
        PROGRAMS.oneMistake,
        PYTHON,
        ...(engineBundle ? [engineBundle] : []),
      ]);
      return { ms: r.ms, report: JSON.parse(r.stdout) };
    };
    const workerRows = await rounds([row('in process', checkOnce(undefined)), row('worker', checkOnce(bundle))], RUNS);
    const inProcess = workerRows['in process'];
    const worker = workerRows.worker;
    if (inProcess.last.report.mistakes.join() !== worker.last.report.mistakes.join())
      throw new Error('the worker and the in-process check disagree');
    report(
      'one mistake, checking process started fresh: diagnosis in the engine worker / in that process',
      `${x(worker.ms / inProcess.ms)} (${s(worker.ms)} / ${s(inProcess.ms)})`,
      '≤ 1.2×',
      worker.ms / inProcess.ms <= 1.2,
    );

    // 6. The editor's check service.
    await serviceRows(engine, {
      ROOT,
      LESSON,
      PYTHON,
      PROGRAMS,
      RUNS,
      rounds,
      row,
      report,
      cliCheck,
      timedProcess,
      s,
      x,
      sample: SAMPLE,
    });

    // 7. The real-style corpus: every program once, the slowest named.
    await corpusRows(cliCheck);

    printTable(startAndCorrect);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
