/**
 * What containment costs per process start: a tiny program (reads its input, prints one line) started
 * bare, in the process-group fallback (prlimit, private folder, /proc sweep), and in each sandbox tool this
 * machine has. Rounds are interleaved so that a busy machine slows every variant alike; medians are printed
 * with their ratio to the bare start.  Run: npx tsx scripts/bench-sandbox.ts [runs]
 */
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import { containProgram, type Launch } from '../src/node/sandbox/contain';
import type { PreparedProgram } from '../src/node/languages/languages';
import { runProcess } from '../src/node/run/runner';
import { availableSandbox, forgetDetectedSandbox } from '../src/node/sandbox/sandbox';

const runs = Number(process.argv[2] ?? 20);
const limits = { timeLimitMs: 20_000, outputLimitBytes: 1024 * 1024 };
const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

const programs: Record<string, PreparedProgram> = {
  python: {
    runtime: 'python',
    command: python,
    args: ['-c', 'import sys; sys.stdin.read(); print("OK")'],
    cwd: os.tmpdir(),
    readable: [],
    packFiles: [],
    fileName: 'x.py',
    dispose: async () => undefined,
  },
  node: {
    runtime: 'node',
    command: process.execPath,
    args: ['-e', 'process.stdin.resume(); process.stdin.on("end", () => console.log("OK"))'],
    cwd: os.tmpdir(),
    readable: [],
    packFiles: [],
    fileName: 'x.js',
    dispose: async () => undefined,
  },
};

async function launchWith(program: PreparedProgram, variant: string): Promise<Launch | null> {
  if (variant === 'bare') {
    // The same allowlisted environment as the contained runs: only the containment differs.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8' };
    return {
      containment: 'process-group',
      run: (input, l) =>
        runProcess(
          { command: program.command, args: program.args, cwd: os.tmpdir(), env, inheritEnv: false, ...l },
          input,
        ),
    };
  }
  if (variant === 'process-group') return containProgram(program, { setting: 'off', hidden: [] });
  process.env.LESSON_COMPANION_SANDBOX_TOOL = variant;
  forgetDetectedSandbox();
  if ((await availableSandbox())?.tool !== variant) return null;
  return containProgram(program, { setting: 'require', hidden: [] });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function main(): Promise<void> {
  console.log(
    `${runs} starts of each, interleaved; median ms per start (ratio to bare), load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.log('| program | bare | process-group | bwrap | unshare |\n|---|---|---|---|---|');
  for (const [name, program] of Object.entries(programs)) {
    const variants = ['bare', 'process-group', 'bwrap', 'unshare'];
    const launches = new Map<string, Launch>();
    for (const variant of variants) {
      const launch = await launchWith(program, variant);
      if (launch) launches.set(variant, launch);
    }
    const times = new Map<string, number[]>([...launches.keys()].map((v) => [v, []]));
    for (let i = 0; i < runs + 1; i++) {
      for (const [variant, launch] of launches) {
        const started = performance.now();
        const result = await launch.run('POOL a\n', limits);
        if (result.stdout !== 'OK\n') throw new Error(`${name} ${variant}: ${result.stdout} ${result.stderr}`);
        if (i > 0) times.get(variant)!.push(performance.now() - started); // the first round warms caches
      }
    }
    const bare = median(times.get('bare')!);
    const cell = (variant: string): string => {
      const t = times.get(variant);
      return t ? `${median(t).toFixed(0)} (${(median(t) / bare).toFixed(2)}×)` : 'n/a';
    };
    console.log(`| ${name} | ${bare.toFixed(0)} | ${cell('process-group')} | ${cell('bwrap')} | ${cell('unshare')} |`);
  }
}

void main();
