// npm run bench:grade
//
// Grading a class against checking it one program at a time: 60 submissions of the least-connections lesson
// (scripts/grade-class.mjs: 20 correct, 20 with one or two named mistakes, 15 that hang, spin, fork-bomb or
// flood, and 5 that are not checked: no file, a syntax error, binary junk, 50 MB, a link out), graded by
// `lesson-companion grade` (dist/cli.js, built first) with the default --jobs, against the same 55 programs
// that can be checked, each by its own `lesson-companion check` process one after another (how an instructor
// scripts it today). Both with the sandbox required, the same cache folder, warmed by one check first.
//
// Budgets (issue 21): grade time at most 0.6x the sequential checks; peak memory of the whole grade (its
// process tree, sampled from /proc) at most 400 MB. Also printed: submissions per second, one check's time.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeClass } from './grade-class.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');

/** Memory of a process and all its descendants (bytes, from /proc): RSS summed, and PSS (shared pages split). */
function treeMemory(rootPid) {
  const children = new Map();
  for (const pid of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(pid));
    } catch {
      // ended while we looked
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

function timed(args, { env, sampleMemory = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    const out = [];
    const err = [];
    const peak = { rss: 0, pss: 0 };
    const sampler = sampleMemory
      ? setInterval(() => {
          const now = treeMemory(child.pid);
          peak.rss = Math.max(peak.rss, now.rss);
          peak.pss = Math.max(peak.pss, now.pss);
        }, 50)
      : undefined;
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (sampler) clearInterval(sampler);
      resolve({
        ms: performance.now() - started,
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        peak,
      });
    });
  });
}

execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'ignore' });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-bench-grade-'));
const env = {
  ...process.env,
  LESSON_COMPANION_CACHE_DIR: process.env.LESSON_COMPANION_CACHE_DIR ?? path.join(tmp, 'cache'),
  CI: 'true',
};
try {
  const classDir = path.join(tmp, 'class');
  const students = makeClass(classDir, { correct: 20, mistaken: 20, hostile: 15, special: true });
  // The files `check` can be given: what findSubmissions finds, less what grade refuses without a check.
  const files = [];
  for (const s of students) {
    const entry = fs.existsSync(path.join(classDir, s.student)) ? path.join(classDir, s.student) : undefined;
    if (!entry || ['missing', 'refused'].includes(s.expect.status)) continue;
    const found = ['balancer.py', 'balancer.js', 'src/balancer.py', 'src/balancer.js']
      .map((f) => path.join(entry, f))
      .find((f) => fs.existsSync(f));
    if (found) files.push(found);
  }
  for (const f of fs.readdirSync(classDir)) if (/\.(py|js)$/.test(f)) files.push(path.join(classDir, f));

  await timed(['check', files[0], '--lesson', LESSON, '--json', '--sandbox', 'require'], { env }); // warm the cache folder
  const sequentialStarted = performance.now();
  const single = [];
  for (const file of files)
    single.push((await timed(['check', file, '--lesson', LESSON, '--json', '--sandbox', 'require'], { env })).ms);
  const sequentialMs = performance.now() - sequentialStarted;

  const grade = await timed(
    ['grade', classDir, '--lesson', LESSON, '--out', path.join(tmp, 'out'), '--format', 'json'],
    { env, sampleMemory: true },
  );
  if (grade.code !== 0) throw new Error(`grade failed (${grade.code}): ${grade.stderr}`);
  const report = JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'class-report.json'), 'utf8'));
  const statuses = Object.entries(report.statuses)
    .filter(([, n]) => n)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const ratio = grade.ms / sequentialMs;
  const mb = (b) => b / 1024 / 1024;
  const sorted = [...single].sort((a, b) => a - b);
  const rows = [
    [
      `grade ${students.length} submissions (${os.availableParallelism()} cores, default --jobs): ${statuses}`,
      `${(grade.ms / 1000).toFixed(1)} s`,
      '',
    ],
    [`${files.length} sequential \`check\` processes`, `${(sequentialMs / 1000).toFixed(1)} s`, ''],
    ['grade / sequential checks (budget 0.6)', ratio.toFixed(2), ratio <= 0.6 ? 'ok' : 'MISSED'],
    [
      'peak memory of the whole grade, PSS / RSS (budget 400 MB)',
      `${mb(grade.peak.pss).toFixed(0)} MB / ${mb(grade.peak.rss).toFixed(0)} MB`,
      mb(grade.peak.pss) <= 400 ? 'ok' : 'MISSED',
    ],
    ['submissions per second (grade)', (students.length / (grade.ms / 1000)).toFixed(2), ''],
    [
      'one check: median / max',
      `${(sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(2)} s / ${(sorted[sorted.length - 1] / 1000).toFixed(2)} s`,
      '',
    ],
  ];
  for (const [what, value, verdict] of rows) console.log(`${what.padEnd(96)} ${value.padStart(18)} ${verdict}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
