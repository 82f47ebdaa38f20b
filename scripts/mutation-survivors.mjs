// Lists the mutants a mutation run left alive as test-output/mutation/SURVIVORS.md: per file, the line, the mutator,
// the replacement and the source line, each with its reason when docs/mutation-equivalents.json gives one (an
// equivalent mutant); the others still need a test. Reads test-output/mutation/mutation.json (`npm run mutation`)
// and every part's report in test-output/mutation/parts/*.json (`STRYKER_PART=<name> npm run mutation -- --mutate …`),
// a file's newest report winning, so parts measured one after another make one report.
//   node scripts/mutation-survivors.mjs [report.json…] [--out <file>]
import * as fs from 'node:fs';
import * as path from 'node:path';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const output = outAt >= 0 ? args[outAt + 1] : 'test-output/mutation/SURVIVORS.md';
const named = args.filter((a, i) => a !== '--out' && i !== outAt + 1);
const partsDir = 'test-output/mutation/parts';
const inputs =
  named.length > 0
    ? named
    : [
        'test-output/mutation/mutation.json',
        ...(fs.existsSync(partsDir)
          ? fs
              .readdirSync(partsDir)
              .filter((f) => f.endsWith('.json') && !f.endsWith('.incremental.json'))
              .map((f) => path.join(partsDir, f))
          : []),
      ].filter((f) => fs.existsSync(f));
if (inputs.length === 0) throw new Error('no mutation report: run `npm run mutation` first');

// A file measured in several reports: the newest report's results count.
const files = new Map();
for (const input of inputs.sort((a, b) => fs.statSync(a).mtimeMs - fs.statSync(b).mtimeMs)) {
  const report = JSON.parse(fs.readFileSync(input, 'utf8'));
  for (const [file, data] of Object.entries(report.files)) files.set(file, { ...data, from: input });
}

/**
 * Reasons for equivalent mutants: { file, original (the exact code mutated), replacement (what it became), reason },
 * and `line` where the same code is mutated the same way on several lines and only one is equivalent.
 */
const reasons = JSON.parse(fs.readFileSync('docs/mutation-equivalents.json', 'utf8'));
const squash = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
function reasonFor(file, line, original, replacement) {
  return reasons.find(
    (r) =>
      r.file === file &&
      (r.line === undefined || r.line === line) &&
      squash(original) === squash(r.original) &&
      squash(replacement) === squash(r.replacement),
  )?.reason;
}
/** The code a mutant replaced: the source between its start and end (lines and columns 1-based in Stryker's report). */
function originalOf(source, { start, end }) {
  if (start.line === end.line) return source[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    source[start.line - 1].slice(start.column - 1),
    ...source.slice(start.line, end.line - 1),
    source[end.line - 1].slice(0, end.column - 1),
  ].join('\n');
}

const ALIVE = new Set(['Survived', 'NoCoverage']);
const INVALID = new Set(['Ignored', 'CompileError', 'RuntimeError']);
const body = [];
const byFolder = new Map();
let total = 0;
let detected = 0;
let explained = 0;
let open = 0;
for (const [file, data] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
  const source = data.source.split('\n');
  const valid = data.mutants.filter((m) => !INVALID.has(m.status));
  const killed = valid.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length;
  const left = valid.filter((m) => ALIVE.has(m.status)).sort((a, b) => a.location.start.line - b.location.start.line);
  const folder = path.dirname(file);
  const sum = byFolder.get(folder) ?? { mutants: 0, killed: 0, survived: 0, noCoverage: 0, explained: 0 };
  sum.mutants += valid.length;
  sum.killed += killed;
  sum.survived += valid.filter((m) => m.status === 'Survived').length;
  sum.noCoverage += valid.filter((m) => m.status === 'NoCoverage').length;
  byFolder.set(folder, sum);
  total += valid.length;
  detected += killed;
  const score = valid.length ? ((100 * killed) / valid.length).toFixed(1) : '-';
  body.push(`## ${file}: ${score}% (${killed} of ${valid.length} detected; ${data.from})`, '');
  for (const m of left) {
    const at = m.location.start.line;
    const original = originalOf(source, m.location);
    const replacement = squash(m.replacement).slice(0, 80);
    const reason = reasonFor(file, at, original, m.replacement);
    if (reason) {
      explained += 1;
      sum.explained += 1;
    } else open += 1;
    const what = m.status === 'NoCoverage' ? 'no test reaches it' : m.mutatorName;
    body.push(
      `- ${at} ${what}: \`${squash(original).slice(0, 80)}\` → \`${replacement}\`${reason ? ` (equivalent: ${reason})` : ''}`,
    );
  }
  body.push('');
}
const pct = (k, n) => (n ? ((100 * k) / n).toFixed(1) : '-');
const table = [
  '| folder | mutants | killed | survived | no coverage | score | survivors with a reason |',
  '|---|---|---|---|---|---|---|',
];
for (const [folder, s] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
  table.push(
    `| ${folder} | ${s.mutants} | ${s.killed} | ${s.survived} | ${s.noCoverage} | ${pct(s.killed, s.mutants)}% | ${s.explained} |`,
  );
}
const lines = [
  '# Surviving mutants',
  '',
  `From ${inputs.join(', ')}. Reasons: docs/mutation-equivalents.json; scores and gaps: docs/mutation.md.`,
  '',
  `Score: ${pct(detected, total)}% (${detected} of ${total} mutants detected; ${total - detected} alive: ${explained} equivalent with a reason, ${open} without).`,
  '',
  ...table,
  '',
  ...body,
];
fs.mkdirSync(path.dirname(output), { recursive: true });
fs.writeFileSync(output, lines.join('\n'));
console.log(
  `${output}: score ${pct(detected, total)}%, ${total - detected} alive of ${total} (${explained} equivalent, ${open} need a test or a reason)`,
);
console.log(table.join('\n'));
