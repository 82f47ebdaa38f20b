/**
 * Checks what a real-style fixture (test/fixtures/real-style/) really does, independently of the engine:
 * runs the hidden transcripts and many generated ones, each alone in a fresh process, and compares the
 * answers with the lesson's reference model under every set of up to three mutations. A deterministic
 * program whose header is right is matched by the mutations of the mistakes it lists (or by none, for a
 * difference the lesson has no name for). It also walks every failing transcript step by step, following
 * the program's own answers, and prints the steps that no listed mutation explains, and whether two fresh
 * runs (and two runs in one process, each after the reset) answer the same.
 *
 *   npx tsx scripts/verify-real-style.ts <fixture>... [--generated 150] [--on tiebreak-any,negative-count] [--alone]
 *
 * A tool for whoever writes or changes a fixture; the engine's own verdicts are tested in
 * test/node/realStyle.test.ts.
 */
import * as path from 'node:path';
import { runBatch } from '../src/core/check/batch';
import type { ReferenceModel } from '../src/core/model/model';
import type { ProcessResult } from '../src/core/check/process';
import { seededRandom } from '../src/core/model/random';
import type { Language } from '../src/core/pack/schema';
import { outputLines } from '../src/core/model/segment';
import { sameOutcome, simulate, type Outcome } from '../src/core/model/simulate';
import { DEFAULT_INTERPRETERS, languageOf, prepareProgram } from '../src/node/languages/languages';
import { loadPack, type LoadedPack } from '../src/node/packs/packs';
import { runProcess } from '../src/node/run/runner';

const ROOT = path.join(__dirname, '..');

interface Case {
  readonly name: string;
  readonly commands: readonly string[];
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  }));
  return results;
}

function subsets<T>(items: readonly T[], max: number): T[][] {
  const out: T[][] = [[]];
  const grow = (start: number, current: T[]): void => {
    for (let i = start; i < items.length; i++) {
      const next = [...current, items[i]!];
      out.push(next);
      if (next.length < max) grow(i + 1, next);
    }
  };
  grow(0, []);
  return out;
}

/**
 * Answers per command. A many-line answer (STATUS, ACTIVE) is sorted by name, so a line whose name does
 * not sort after the previous one starts the next command's answer: two STATUS in a row come apart.
 */
function segment(model: ReferenceModel, commands: readonly string[], lines: readonly string[], finished: boolean): string[][] {
  const answers: string[][] = [];
  let at = 0;
  for (const command of commands) {
    const shape = model.answerShape(command);
    if (shape.kind === 'one') {
      if (at >= lines.length) break;
      answers.push([lines[at++]!]);
      continue;
    }
    if (at >= lines.length && !finished) break;
    const taken: string[] = [];
    const nameOf = (line: string): string => line.split(':')[0]!;
    while (at < lines.length && shape.line.test(lines[at]!) && (taken.length === 0 || nameOf(lines[at]!) > nameOf(taken[taken.length - 1]!))) taken.push(lines[at++]!);
    answers.push(taken);
  }
  return answers;
}

async function verify(file: string, generatedCount: number, on: readonly string[], alone: boolean): Promise<void> {
  const relative = path.relative(path.join(ROOT, 'test', 'fixtures', 'real-style'), path.resolve(file));
  const lesson = relative.split(path.sep)[0]!;
  const language = languageOf(file) as Language;
  const pack: LoadedPack = await loadPack(path.join(ROOT, 'lessons', lesson), 'folder', { model: true });
  const model: ReferenceModel = pack.model;
  const starter = pack.manifest.starters[language]!;
  const driver = starter.driver ? path.join(pack.dir, starter.driver) : undefined;
  const program = await prepareProgram(language, path.resolve(file), DEFAULT_INTERPRETERS, driver);
  const run = async (stdin: string): Promise<{ lines: string[]; outcome: Outcome }> => {
    const result = await runProcess({ command: program.command, args: program.args, cwd: program.cwd, timeLimitMs: 5000, outputLimitBytes: 1 << 20 }, stdin);
    const lines = outputLines(result.stdout);
    const ending = result.timedOut ? 'timed-out' : result.exitCode === 0 ? 'finished' : 'crashed';
    return { lines, outcome: { lines, ending } };
  };
  /** One list of commands in a fresh process, after the reset command as the engine sends it. */
  const runAlone = async (commands: readonly string[]): Promise<Outcome> => {
    const { outcome } = await run([model.resetCommand, ...commands].join('\n') + '\n');
    return { lines: outcome.lines.slice(model.resetAnswer.length), ending: outcome.ending };
  };
  const random = seededRandom(20260101);
  const cases: Case[] = [
    ...pack.transcripts.map((t) => ({ name: t.name, commands: t.steps.map((s) => s.command) })),
    ...Array.from({ length: generatedCount }, (_, i) => ({ name: `generated-${i + 1}`, commands: model.generate(random, 4 + random.int(28)) })),
  ];
  // Alone: each transcript in a fresh process (exact for programs whose state leaks across the reset);
  // else in groups of 25 per process, as the engine batches them (a crash restarts the rest).
  const execute = async (stdin: string): Promise<ProcessResult> => runProcess({ command: program.command, args: program.args, cwd: program.cwd, timeLimitMs: 10000, outputLimitBytes: 1 << 22 }, stdin);
  const groups = alone ? cases.map((c) => [c]) : Array.from({ length: Math.ceil(cases.length / 25) }, (_, g) => cases.slice(g * 25, g * 25 + 25));
  const outcomes = (await mapLimit(groups, 2, async (group) => (await runBatch(model, execute, group.map((c) => c.commands))).outcomes)).flat();
  const failing = cases.map((_, i) => i).filter((i) => !sameOutcome(outcomes[i]!, simulate(model, cases[i]!.commands).outcome));
  const deterministic = model.mutations.filter((m) => !m.nondeterministic).map((m) => m.id);
  const matches = subsets(deterministic, 3)
    .filter((set) => cases.every((c, i) => sameOutcome(outcomes[i]!, simulate(model, c.commands, new Set(set)).outcome)))
    .filter((set, _, all) => !all.some((smaller) => smaller.length < set.length && smaller.every((m) => set.includes(m))));
  console.log(`\n${relative}: ${failing.length} of ${cases.length} transcripts fail (${failing.slice(0, 6).map((i) => cases[i]!.name).join(', ')})`);
  console.log(`  matched exactly by: ${matches.length ? matches.map((s) => `{${s.join(', ') || 'reference'}}`).join(' ') : 'no mutation set of up to 3'}`);

  // Step by step, following the program: the steps that the mutations in `on` do not explain.
  const mutations = new Set(on);
  let unexplained = 0;
  let shown = 0;
  for (const i of failing) {
    const commands = cases[i]!.commands;
    const answers = segment(model, commands, outcomes[i]!.lines, outcomes[i]!.ending === 'finished');
    let state = model.initial();
    for (const [k, command] of commands.entries()) {
      const observed = answers[k];
      const result = model.step(state, command, mutations, observed);
      const expected = result.answer.kind === 'lines' ? result.answer.lines : null;
      const allowed = [expected, ...(result.alternatives ?? [])];
      const fits = observed === undefined ? result.answer.kind === 'crash' : allowed.some((a) => a !== null && a.length === observed.length && a.every((l, j) => l === observed[j]));
      if (!fits) {
        unexplained += 1;
        if (shown++ < 5) {
          const said = model.describeDifference?.(state, command, expected ?? ['(crash)'], observed ?? ['(no answer)']) ?? '';
          console.log(`  unexplained by {${on.join(', ')}}: ${cases[i]!.name} #${k} ${command}: expected ${JSON.stringify(expected)} got ${JSON.stringify(observed ?? null)}  ${said}`);
        }
      }
      if (observed === undefined) break;
      state = result.state;
    }
  }
  console.log(`  steps unexplained by {${on.join(', ')}}: ${unexplained}`);

  const probe = failing[0];
  if (probe !== undefined) {
    const commands = cases[probe]!.commands;
    const [a, b] = await Promise.all([runAlone(commands), runAlone(commands)]);
    const twice = await run([model.resetCommand, ...commands, model.resetCommand, ...commands].join('\n') + '\n');
    const half = twice.lines.length / 2;
    const sameTwice = twice.lines.slice(0, half).join('\n') === twice.lines.slice(half).join('\n');
    console.log(`  ${cases[probe]!.name}: fresh runs ${sameOutcome(a, b) ? 'same' : 'DIFFERENT'}; twice in one process ${sameTwice ? 'same' : 'DIFFERENT'}`);
  }
  await program.dispose();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const [, value] = args.splice(at, 2);
    return value;
  };
  const generated = Number(option('--generated') ?? 150);
  const on = (option('--on') ?? '').split(',').filter(Boolean);
  const alone = args.includes('--alone');
  for (const file of args.filter((a) => a !== '--alone')) await verify(file, generated, on, alone);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
