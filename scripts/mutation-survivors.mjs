// Lists the mutants a mutation run left alive (test-output/mutation/mutation.json, written by `npm run mutation`)
// as test-output/mutation/SURVIVORS.md: per file, the line, the mutator, the replacement and the source line.
// Each one needs a test or a reason; the reasons (equivalent mutants, known gaps) are in docs/mutation.md.
import * as fs from 'node:fs';

const input = process.argv[2] ?? 'test-output/mutation/mutation.json';
const output = process.argv[3] ?? 'test-output/mutation/SURVIVORS.md';
const report = JSON.parse(fs.readFileSync(input, 'utf8'));
const ALIVE = new Set(['Survived', 'NoCoverage']);
const lines = ['# Surviving mutants', '', `From ${input}. Reasons and known gaps: docs/mutation.md.`, ''];
let total = 0;
let detected = 0;
let alive = 0;
for (const [file, data] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const source = data.source.split('\n');
  const valid = data.mutants.filter((m) => !['Ignored', 'CompileError', 'RuntimeError'].includes(m.status));
  const killed = valid.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length;
  const left = valid.filter((m) => ALIVE.has(m.status)).sort((a, b) => a.location.start.line - b.location.start.line);
  total += valid.length;
  detected += killed;
  alive += left.length;
  const score = valid.length ? ((100 * killed) / valid.length).toFixed(1) : '-';
  lines.push(`## ${file}: ${score}% (${killed} of ${valid.length} detected)`, '');
  for (const m of left) {
    const at = m.location.start.line;
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 60);
    lines.push(`- ${at} ${m.status === 'NoCoverage' ? 'no test reaches it' : m.mutatorName}: \`${replacement}\` in \`${source[at - 1].trim().slice(0, 100)}\``);
  }
  lines.push('');
}
lines.splice(3, 0, `Score: ${((100 * detected) / total).toFixed(1)}% (${detected} of ${total} mutants detected, ${alive} alive).`, '');
fs.writeFileSync(output, lines.join('\n'));
console.log(`${output}: ${alive} alive of ${total}, score ${((100 * detected) / total).toFixed(1)}%`);
