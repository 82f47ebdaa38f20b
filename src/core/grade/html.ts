/**
 * The class report as one self-contained HTML file: inline CSS and SVG charts, no script, nothing loaded
 * from anywhere (its CSP says so), light and dark from the reader's system setting. Every text that comes
 * from a student (folder names, program output) is escaped. No style attributes, only the one <style>
 * element: the editor shows the page under a CSP that admits that element by its nonce and nothing else.
 */
import MarkdownIt from 'markdown-it';
import { percent, type ClassReport, type MistakeBar } from './classReport';
import type { GradeRow, RowExample, RowStatus } from './row';

/** A pack's prompts are Markdown (`code`, *emphasis*): rendered inline, raw HTML escaped, no links or images. */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable(['link', 'image', 'autolink']);

export function promptHtml(text: string): string {
  return md.renderInline(text);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STATUS_WORDS: Record<RowStatus, string> = {
  pass: 'passed',
  fail: 'failed',
  error: 'could not run',
  missing: 'no file',
  refused: 'refused',
  'check-failed': 'check failed',
};

const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bar:#cf222e;--pass:#1a7f37;--fail:#cf222e;--error:#9a6700;--missing:#8c959f;--refused:#8250df;--check-failed:#bc4c00;--track:#eff2f5}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--bar:#ff7b72;--pass:#3fb950;--fail:#f85149;--error:#d29922;--missing:#6e7681;--refused:#a371f7;--check-failed:#db6d28;--track:#21262d}}
body{background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem}
h1{font-size:1.5rem;margin:0}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid var(--line);padding-bottom:.3rem}
.muted{color:var(--muted)}.big{font-size:2.2rem;font-weight:600}
.cards{display:flex;gap:1rem;flex-wrap:wrap;margin:1rem 0}.card{border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem;min-width:140px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}th{font-weight:600}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}pre{margin:.2rem 0;white-space:pre-wrap}
svg text{fill:var(--fg);font:12px system-ui,sans-serif}svg .muted{fill:var(--muted)}svg .bar{fill:var(--bar)}svg .track{fill:var(--track)}
.f-pass{fill:var(--pass)}.f-fail{fill:var(--fail)}.f-error{fill:var(--error)}.f-missing{fill:var(--missing)}.f-refused{fill:var(--refused)}.f-check-failed{fill:var(--check-failed)}
.s-pass{color:var(--pass)}.s-fail{color:var(--fail)}.s-error{color:var(--error)}.s-missing{color:var(--missing)}.s-refused{color:var(--refused)}.s-check-failed{color:var(--check-failed)}
details{margin:.3rem 0}
`;

/** The statuses of the class as one stacked bar, with a legend. */
function statusBar(report: ClassReport): string {
  const width = 700;
  let x = 0;
  const parts: string[] = [];
  const legend: string[] = [];
  let lx = 0;
  for (const [status, count] of Object.entries(report.statuses) as [RowStatus, number][]) {
    if (count === 0) continue;
    const w = report.students ? (count / report.students) * width : 0;
    parts.push(
      `<rect x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="24" class="f-${status}"><title>${STATUS_WORDS[status]}: ${count}</title></rect>`,
    );
    legend.push(
      `<rect x="${lx}" y="36" width="12" height="12" class="f-${status}"/><text x="${lx + 16}" y="46">${STATUS_WORDS[status]} ${count}</text>`,
    );
    x += w;
    lx += 130;
  }
  return `<svg role="img" aria-label="Students by status" width="${Math.max(width, lx)}" height="56" viewBox="0 0 ${Math.max(width, lx)} 56"><rect width="${width}" height="24" class="track"/>${parts.join('')}${legend.join('')}</svg>`;
}

/** The histogram of mistakes: one horizontal bar per mistake, its length the share of the class. */
function mistakeChart(mistakes: readonly MistakeBar[]): string {
  const label = 300;
  const bar = 360;
  const rowHeight = 28;
  const rows = mistakes.map((m, i) => {
    const y = i * rowHeight;
    const w = Math.max(1, m.share * bar);
    // Cut between characters as a reader sees them: slicing UTF-16 units split an emoji into a broken glyph.
    const shown = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(m.title)].map((g) => g.segment);
    const title = shown.length > 44 ? `${shown.slice(0, 43).join('')}…` : m.title;
    return (
      `<text x="${label - 8}" y="${y + 17}" text-anchor="end">${escapeHtml(title)}</text>` +
      `<rect x="${label}" y="${y + 4}" width="${bar}" height="18" class="track"/>` +
      `<rect x="${label}" y="${y + 4}" width="${w.toFixed(1)}" height="18" class="bar"><title>${escapeHtml(m.title)}: ${m.count} (${percent(m.share)})</title></rect>` +
      `<text x="${label + bar + 8}" y="${y + 17}">${m.count} · ${percent(m.share)}</text>`
    );
  });
  const height = mistakes.length * rowHeight + 4;
  return `<svg role="img" aria-label="Mistakes by share of the class" width="${label + bar + 90}" height="${height}" viewBox="0 0 ${label + bar + 90} ${height}">${rows.join('')}</svg>`;
}

function exampleHtml(example: RowExample): string {
  const lines = example.commands.map((c, i) => `${i === example.divergesAt ? '→' : ' '} ${c}`);
  return (
    `<pre>${escapeHtml(lines.join('\n'))}</pre>` +
    `<div class="muted">expected <code>${escapeHtml(example.expected.join(' / ') || '(nothing)')}</code>, got <code>${escapeHtml(example.actual.join(' / ') || '(nothing)')}</code></div>`
  );
}

function mistakeTable(report: ClassReport): string {
  if (report.mistakes.length === 0) return '<p class="muted">No student\'s check named a mistake.</p>';
  const rows = report.mistakes.map((m) => {
    const teach = [
      m.step ? `step ${m.step.number}: ${escapeHtml(m.step.title)}` : '',
      m.question ? `failure question <code>${escapeHtml(m.question.id)}</code>: ${promptHtml(m.question.prompt)}` : '',
    ]
      .filter(Boolean)
      .join('<br>');
    const example = m.commonExample
      ? `${exampleHtml(m.commonExample)}<div class="muted">shown to ${m.commonExample.students} of ${m.count}</div>`
      : '<span class="muted">none</span>';
    const rungs = `question ${m.rungs[1]} · lines ${m.rungs[2]} · transcript ${m.rungs[3]}`;
    return `<tr><td><strong>${escapeHtml(m.title)}</strong><br><code class="muted">${escapeHtml(m.id)}${m.variant ? ` · ${escapeHtml(m.variant)}` : ''}</code></td><td>${m.count}</td><td>${percent(m.share)}</td><td>${rungs}</td><td>${teach || '<span class="muted">—</span>'}</td><td>${example}</td></tr>`;
  });
  return `<table><thead><tr><th>Mistake</th><th>Students</th><th>Share</th><th>Hint rungs reached</th><th>Teach again</th><th>Most common smallest counterexample</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * A row's checks as marks. A row that did not pass never shows full marks: when every transcript's answers
 * were right yet the check failed (stray output, ...), the cell says what failed instead.
 */
export function checksCell(row: GradeRow): string {
  const { passed, total } = row.checks;
  if (row.status !== 'pass' && total > 0 && passed >= total)
    return `<span class="muted">failed: ${escapeHtml(row.problems.join(', ') || row.status)}</span>`;
  return `${passed}/${total}`;
}

function reportedCell(row: GradeRow): string {
  if (!row.reported) return '';
  return `<br><span class="muted">reported by the student's workflow (not counted): ${escapeHtml(row.reported.status)} ${row.reported.passed}/${row.reported.total}</span>`;
}

function studentTable(report: ClassReport): string {
  const rows = report.rows.map(
    (r) =>
      `<tr><td>${escapeHtml(r.student)}</td><td class="s-${r.status}">${STATUS_WORDS[r.status]}${reportedCell(r)}</td><td>${checksCell(r)}</td>` +
      `<td>${r.mistakes.map((m) => escapeHtml(m.title)).join('<br>') || '<span class="muted">—</span>'}</td>` +
      `<td>${r.quiz ? `${r.quiz.right}/${r.quiz.total}` : '<span class="muted">—</span>'}</td><td class="muted">${escapeHtml(r.reason ?? '')}</td></tr>`,
  );
  return `<table><thead><tr><th>Student</th><th>Status</th><th>Checks</th><th>Mistakes</th><th>Quiz</th><th>Reason</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The quiz per question: how many answered, how many right, the most common wrong answer. */
function quizTable(report: ClassReport): string {
  if (report.quiz.questions.length === 0) return '';
  const rows = report.quiz.questions.map(
    (q) =>
      `<tr><td>${promptHtml(q.prompt)}<br><code class="muted">${escapeHtml(q.id)}</code></td><td>${q.answered}</td><td>${q.right}</td>` +
      `<td>${q.commonWrong ? `<code>${escapeHtml(q.commonWrong.answer)}</code> (${q.commonWrong.count})` : '<span class="muted">—</span>'}</td></tr>`,
  );
  return `<h2>The quiz, question by question</h2><table><thead><tr><th>Question</th><th>Answered</th><th>Right</th><th>Most common wrong answer</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function slowestList(report: ClassReport): string {
  if (report.slowest.length === 0) return '';
  const items = report.slowest.map((s) => `${escapeHtml(s.student)} ${s.seconds} s (${escapeHtml(s.why)})`);
  return `<div class="muted">Slowest: ${items.join(', ')}</div>`;
}

export function classReportHtml(report: ClassReport): string {
  const { lesson } = report;
  const unrecognised = report.unrecognised.length
    ? `<table><thead><tr><th>First differs at</th><th>Expected</th><th>Students</th></tr></thead><tbody>${report.unrecognised
        .map(
          (g) =>
            `<tr><td><code>${escapeHtml(g.command)}</code></td><td><code>${escapeHtml(g.expected.join(' / ') || '(nothing)')}</code></td><td>${g.count}: ${escapeHtml(g.students.join(', '))}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">None.</p>';
  const quiz = report.quiz.meanScore === null ? '—' : percent(report.quiz.meanScore);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(lesson.title)}: class report</title><style>${CSS}</style></head><body>
<h1>${escapeHtml(lesson.title)}</h1>
<div class="muted">Lesson <code>${escapeHtml(lesson.id)}</code> ${escapeHtml(lesson.version)} · ${report.students} students · ${escapeHtml(report.generatedAt)}</div>
<div class="cards">
<div class="card"><div class="muted">Pass rate</div><div class="big">${percent(report.passRate)}</div><div class="muted">${report.statuses.pass} of ${report.students}</div></div>
<div class="card"><div class="muted">Random programs</div><div class="big">${report.random.count}</div><div class="muted">answer differently on each run</div></div>
<div class="card"><div class="muted">Stopped answering</div><div class="big">${report.stoppedAnswering.count}</div><div class="muted">hung or ran out of time</div></div>
<div class="card"><div class="muted">Quiz, mean score</div><div class="big">${quiz}</div><div class="muted">${report.quiz.graded} graded</div></div>
</div>
${statusBar(report)}
${slowestList(report)}
<h2>What the class gets wrong</h2>
${report.mistakes.length ? mistakeChart(report.mistakes) : ''}
${mistakeTable(report)}
${quizTable(report)}
<h2>Differences no mistake explains, by where they first differ</h2>
${unrecognised}
<h2>Students</h2>
${studentTable(report)}
</body></html>
`;
}

/**
 * The report under the editor's webview CSP, as strict as the lesson panel's: no script, nothing loaded,
 * only the report's own <style> element, admitted by its nonce (the page has no style attributes).
 */
export function reportHtmlForWebview(html: string, nonce: string): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'`;
  return html
    .replace(
      /<meta http-equiv="Content-Security-Policy" content="[^"]*">/,
      `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    )
    .replace('<style>', `<style nonce="${nonce}">`);
}
