// The editor's check service (src/node/service), measured as the editor meets it, each row a ratio within one
// run (see bench.mjs): against the floor, one contained run of the same program on the same input started
// directly (the sandbox, the interpreter, the program: what no check can do without), and against the CLI's
// own check of the same program.
import * as path from 'node:path';

/**
 * `lib`: the in-process bundle of bench.mjs (checkFile, loadPack, containProgram, prepareProgram,
 * PassingBatchStore, CheckServiceClient); `t`: bench.mjs's helpers (rounds, row, report, cliCheck, …).
 */
export async function serviceRows(lib, t) {
  const { ROOT, LESSON, PYTHON, PROGRAMS, RUNS, rounds, row, report, cliCheck, timedProcess, s, x, sample } = t;
  // --sample: a few checks for the memory row, only to see it runs.
  const MEMORY_CHECKS = sample ? 12 : 200;
  const SCRIPT = path.join(ROOT, 'dist', 'service.js');
  const ENGINE = path.join(ROOT, 'dist', 'engine.js');
  const target = { packDir: LESSON, origin: 'built-in', language: 'python', interpreters: { python: PYTHON } };

  // The input a correct program is given on its first run (every hidden and generated transcript, each after
  // the reset), as the engine says it; then the floor: that run, contained, started directly.
  const pack = await lib.loadPack(LESSON, 'built-in');
  const batches = new lib.PassingBatchStore();
  await lib.checkFile(pack, PROGRAMS.correct, 'python', {
    interpreters: { python: PYTHON },
    engine: ENGINE,
    kept: { passingBatches: batches },
  });
  const [batch] = batches.all();
  if (!batch) throw new Error('the engine gave no passing batch for the correct program');
  const floorRun = async () => {
    const started = performance.now();
    const program = await lib.prepareProgram('python', PROGRAMS.correct, { python: PYTHON, node: process.execPath });
    try {
      const launch = await lib.containProgram(program, { setting: 'auto', hidden: [LESSON] });
      const result = await launch.run(batch.input, { timeLimitMs: 20000, outputLimitBytes: 16 * 1024 * 1024 });
      if (result.stdout !== batch.expectedStdout) throw new Error('the floor run did not pass');
      return { ms: performance.now() - started };
    } finally {
      await program.dispose();
    }
  };

  const warmClient = new lib.CheckServiceClient({ script: SCRIPT, node: process.execPath });
  try {
    await warmClient.warm(target);
    const check = (client, file) => async () => {
      const started = performance.now();
      const report = await client.check({ ...target, file });
      return { ms: performance.now() - started, report };
    };
    const firstAfterOpen = async () => {
      const client = new lib.CheckServiceClient({ script: SCRIPT, node: process.execPath });
      try {
        await client.warm(target);
        return await check(client, PROGRAMS.correct)();
      } finally {
        await client.dispose();
      }
    };
    const measured = await rounds(
      [
        row('floor', floorRun),
        row('node -e 0', () => timedProcess(process.execPath, ['-e', '0'])),
        row('service, correct, repeated', check(warmClient, PROGRAMS.correct)),
        row('service, correct, first after open', firstAfterOpen),
        row('service, one mistake, repeated', check(warmClient, PROGRAMS.oneMistake)),
        row('CLI, one mistake', () => cliCheck(PROGRAMS.oneMistake)),
        row('CLI, correct', () => cliCheck(PROGRAMS.correct)),
      ],
      RUNS,
    );
    const m = (name) => measured[name].ms;
    const floor = m('floor');
    for (const name of ['service, correct, repeated', 'service, correct, first after open', 'CLI, correct']) {
      if (measured[name].last.report.status !== 'pass')
        throw new Error(`${name}: expected a pass, got ${measured[name].last.report.status}`);
    }
    const repeated = m('service, correct, repeated') / floor;
    report(
      'editor, correct program, repeated check (service warm) / the floor (one contained run, started directly)',
      `${x(repeated)} (${s(m('service, correct, repeated'))} / ${s(floor)}), ${measured['service, correct, repeated'].last.report.processRuns} run`,
      '≤ 1.3×',
      repeated <= 1.3,
    );
    const first = m('service, correct, first after open') / floor;
    report(
      'editor, correct program, first check after the lesson opened / the floor',
      `${x(first)} (${s(m('service, correct, first after open'))} / ${s(floor)})`,
      '≤ 2.5×',
      first <= 2.5,
    );
    const mistaken = m('service, one mistake, repeated') / m('CLI, one mistake');
    report(
      `editor, one mistake (${measured['service, one mistake, repeated'].last.report.mistakes.map((mk) => mk.id).join(', ')}), repeated check / the CLI's check of it (the editor's path before the service)`,
      `${x(mistaken)} (${s(m('service, one mistake, repeated'))} / ${s(m('CLI, one mistake'))})`,
      '≤ 0.5×',
      mistaken <= 0.5,
    );
    const cli = m('CLI, correct') / (m('node -e 0') + floor);
    report(
      'CLI `check`, correct program / (`node -e 0` + the floor)',
      `${x(cli)} (${s(m('CLI, correct'))} / ${s(m('node -e 0') + floor)})`,
      '≤ 2.5×',
      cli <= 2.5,
    );

    // Memory: the service's own after 10 checks and after 200 (correct and mistaken programs alternately).
    const files = [PROGRAMS.correct, PROGRAMS.oneMistake, PROGRAMS.twoMistakes, PROGRAMS.deterministicTie];
    const status = await warmClient.status();
    let done = status.checks;
    const upTo = async (n) => {
      for (; done < n; done++) await warmClient.check({ ...target, file: files[done % files.length] });
      return warmClient.status();
    };
    const at10 = await upTo(10);
    const at200 = await upTo(MEMORY_CHECKS);
    const growth = at200.rssBytes / at10.rssBytes;
    const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    report(
      `the service's memory (RSS) after ${MEMORY_CHECKS} checks / after 10`,
      `${x(growth)} (${mb(at200.rssBytes)} / ${mb(at10.rssBytes)}; heap ${mb(at200.heapUsedBytes)} / ${mb(at10.heapUsedBytes)})`,
      '≤ 1.1×',
      growth <= 1.1,
    );
  } finally {
    await warmClient.dispose();
  }
}
