// npm run bench:repair [-- --only <substring>[,<substring>...]]
//
// Rung 4, measured as the learner meets it: `lesson-companion check --repair --json` (dist/cli.js, built
// first) on every mistaken program of the real-style corpus (test/fixtures/real-style: a header naming at
// least one of the lesson's mistakes), each in a fresh copy of its folder. A fix that is shown is then applied
// with the real `patch -p0` and the file checked again by a plain `check`: it must pass. Prints, per language,
// the share with a verified fix, the median and worst search time, the median lines changed, and how many
// shown fixes failed when re-checked (the goal: none). Programs the corpus marks `(unnamed)` are run too and
// counted apart (there is no named mistake to undo). Nothing is asserted; the README's figures come from here.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_CLI: a copy of dist/ to measure while the worktree is rebuilt.
const CLI = process.env.BENCH_CLI ?? path.join(ROOT, 'dist', 'cli.js');
const CORPUS = path.join(ROOT, 'test', 'fixtures', 'real-style');
const EXT = { py: 'python', js: 'javascript', ts: 'typescript' };
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1].split(',') : undefined;

/** Every corpus program: its lesson, language, file, the folder to copy, and the mistakes its header names. */
function corpus() {
  const out = [];
  for (const lesson of fs.readdirSync(CORPUS)) {
    const lessonDir = path.join(CORPUS, lesson);
    if (!fs.statSync(lessonDir).isDirectory()) continue;
    for (const language of fs.readdirSync(lessonDir)) {
      for (const entry of fs.readdirSync(path.join(lessonDir, language))) {
        const full = path.join(lessonDir, language, entry);
        // conn-counts: one folder per program, holding least_conn.<ext>.
        const file = fs.statSync(full).isDirectory()
          ? path.join(
              full,
              fs.readdirSync(full).find((f) => /^least_conn\.(py|js|ts)$/.test(f)),
            )
          : full;
        const ext = path.extname(file).slice(1);
        if (!EXT[ext]) continue;
        const header = /expect-mistakes:\s*(.*?)\s*$/m.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? 'none';
        if (header === 'none') continue;
        out.push({
          id: `${lesson}/${language}/${entry}`,
          lesson,
          language: EXT[ext],
          file,
          unnamed: header === '(unnamed)',
        });
      }
    }
  }
  return out.filter((p) => !ONLY || ONLY.some((only) => p.id.includes(only)));
}

function cli(args, cwd) {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`check ${args.join(' ')} gave no JSON: ${run.stderr || run.stdout}`);
  }
}

function measure(program) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-bench-repair-'));
  try {
    const name = path.basename(program.file);
    fs.copyFileSync(program.file, path.join(dir, name));
    const lesson = path.join(ROOT, 'lessons', program.lesson);
    const started = performance.now();
    const report = cli(['check', name, '--lesson', lesson, '--repair', '--json'], dir);
    const wallMs = performance.now() - started;
    const repair = report.repair;
    const row = { ...program, status: report.status, repair, wallMs, recheck: undefined };
    if (repair?.patch) {
      fs.writeFileSync(path.join(dir, 'fix.patch'), repair.patch);
      const applied = spawnSync('patch', ['-p0', '-i', 'fix.patch'], { cwd: dir, encoding: 'utf8' });
      row.recheck =
        applied.status === 0 ? cli(['check', name, '--lesson', lesson, '--json'], dir).status : 'patch refused';
    }
    return row;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function summary(rows, label) {
  const fixed = rows.filter((r) => r.repair?.patch);
  const times = rows.filter((r) => r.repair).map((r) => r.repair.searchMs);
  const lines = fixed.map((r) => r.repair.changedLines.length);
  const failed = fixed.filter((r) => r.recheck !== 'pass').length;
  const share = rows.length ? Math.round((100 * fixed.length) / rows.length) : 0;
  return `${label.padEnd(12)} ${String(fixed.length).padStart(3)}/${String(rows.length).padEnd(3)} fixed (${share}%)  search median ${(median(times) / 1000).toFixed(1)} s, worst ${(Math.max(0, ...times) / 1000).toFixed(1)} s  lines changed median ${median(lines)}  re-check failures ${failed}`;
}

if (!fs.existsSync(CLI))
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
const rows = [];
for (const program of corpus()) {
  const row = measure(program);
  rows.push(row);
  const what = row.repair?.patch
    ? `fixed (${row.repair.edit}) lines ${row.repair.changedLines.join(',')} in ${(row.repair.searchMs / 1000).toFixed(1)} s, ${row.repair.candidates} tried; re-check ${row.recheck}`
    : row.repair
      ? `no fix: ${row.repair.reason} (${row.repair.candidates} tried, ${(row.repair.searchMs / 1000).toFixed(1)} s)`
      : `check ${row.status}, no repair asked`;
  console.log(`${row.id.padEnd(58)} ${what}`);
}
console.log('');
const named = rows.filter((r) => !r.unnamed);
for (const language of ['python', 'javascript', 'typescript'])
  console.log(
    summary(
      named.filter((r) => r.language === language),
      language,
    ),
  );
console.log(summary(named, 'all named'));
console.log(
  summary(
    rows.filter((r) => r.unnamed),
    '(unnamed)',
  ),
);
