/** `validate` output for a terminal: one line per area, the problems with advice, the adequacy tables. */
import * as path from 'node:path';
import { createColors } from 'picocolors';
import type { Adequacy } from '../core/validation/adequacy';
import { safeText } from '../core/text/text';
import type { ValidationArea, ValidationProblem } from '../core/validation/validate';
import type { PackValidation } from '../node/authoring/validatePack';

type Colors = ReturnType<typeof createColors>;

const AREAS: { area: ValidationArea; title: string }[] = [
  { area: 'schema', title: 'lesson.json' },
  { area: 'files', title: 'files' },
  { area: 'model', title: 'model' },
  { area: 'transcripts', title: 'transcripts' },
  { area: 'starters', title: 'starters' },
  { area: 'mistakes', title: 'mistakes' },
  { area: 'read-order', title: 'read order' },
  { area: 'questions', title: 'questions' },
  { area: 'scenarios', title: 'scenarios' },
];

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function where(p: ValidationProblem, shownDir: string): string {
  if (!p.file) return shownDir;
  const file = path.join(shownDir, p.file);
  return p.line ? `${file}:${p.line}${p.column ? `:${p.column}` : ''}` : file;
}

function goodNews(result: PackValidation, area: ValidationArea): string {
  const counts = result.counts;
  if (!counts) return '';
  const caught = result.adequacy?.mistakes.length ?? 0;
  const pairs = result.adequacy?.pairs.length ?? 0;
  switch (area) {
    case 'schema':
      return 'matches the schema';
    case 'files':
      return `every path stays inside the pack; starters for ${counts.languages.join(', ')}`;
    case 'model':
      return `${result.model ?? 'the model'} loads, answers the same commands the same way, and every mutation shows`;
    case 'transcripts':
      return counts.transcripts === 1
        ? 'the reference agrees with the one hidden transcript'
        : `the reference agrees with all ${counts.transcripts} hidden transcripts`;
    case 'starters':
      return result.starters.length === 0
        ? 'not run'
        : `fail as they should in ${result.starters.map((s) => s.language).join(', ')}`;
    case 'mistakes':
      return `${caught === 1 ? 'the one mistake is' : `all ${caught}`} caught by a hidden transcript${pairs > 0 ? `; all ${plural(pairs, 'pair')} told apart` : ''}`;
    case 'read-order':
      return `${plural(counts.steps, 'step')}, every anchor found in every starter`;
    case 'questions':
      return `${plural(counts.questions, 'question')}, consistent`;
    case 'scenarios':
      return counts.scenarios === 0
        ? 'none (no load chart for this lesson)'
        : `${plural(counts.scenarios, 'scenario')}: the reference runs each to the end, and each shows the mistakes it names`;
  }
}

function problemLines(p: ValidationProblem, shownDir: string, c: Colors): string[] {
  const mark = p.severity === 'error' ? c.red('✗') : c.yellow('!');
  // Messages quote the pack's own text, and a pack from someone else may hold terminal control sequences.
  const out = [`  ${mark} ${c.bold(safeText(where(p, shownDir)))}: ${safeText(p.message, { multiline: true })}`];
  if (p.advice) out.push(`      ${c.dim('→')} ${safeText(p.advice, { multiline: true })}`);
  if (p.proposal)
    out.push(
      ...safeText(p.proposal.trimEnd(), { multiline: true })
        .split('\n')
        .map((l) => `        ${c.cyan(l)}`),
    );
  return out;
}

/** mistake × the hidden transcripts that catch it, one row per mutation. */
export function formatAdequacy(adequacy: Adequacy, c: Colors, maxNames = 4): string[] {
  const rows = adequacy.mistakes.flatMap((m) =>
    m.mutations.map((mu, i) => ({ mistake: i === 0 ? m.mistake : '', mutation: mu.mutation, caughtBy: mu.caughtBy })),
  );
  const w1 = Math.max(7, ...rows.map((r) => r.mistake.length));
  const w2 = Math.max(8, ...rows.map((r) => r.mutation.length));
  const total = adequacy.transcripts.length;
  const out = [
    c.bold('Mutation adequacy: the hidden transcripts that catch each mistake'),
    `  ${pad('mistake', w1)}  ${pad('mutation', w2)}  caught by`,
  ];
  for (const r of rows) {
    // "… +1" would take as much room as the name it hides.
    const shownNames = r.caughtBy.length <= maxNames + 1 ? r.caughtBy : r.caughtBy.slice(0, maxNames);
    const names =
      shownNames.join(', ') +
      (shownNames.length < r.caughtBy.length ? `, … +${r.caughtBy.length - shownNames.length}` : '');
    const count = `${r.caughtBy.length}/${total}`;
    const shown = r.caughtBy.length === 0 ? c.red(`${count}  (never caught)`) : `${pad(count, 5)}  ${names}`;
    out.push(`  ${pad(r.mistake, w1)}  ${pad(r.mutation, w2)}  ${shown}`);
  }
  return out;
}

/**
 * The pairs matrix: how many hidden transcripts tell mistake i from mistake j (0 = they cannot be told apart;
 * – = not compared by whole transcripts, said under the matrix when it occurs).
 */
export function formatPairs(adequacy: Adequacy, c: Colors): string[] {
  const ids = adequacy.mistakes.map((m) => m.mistake);
  if (ids.length < 2) return [];
  const labels = ids.map((id, i) => `${i + 1} ${id}`);
  const w = Math.max(...labels.map((l) => l.length));
  const cw = Math.max(3, String(adequacy.transcripts.length).length + 2);
  const head = ' '.repeat(w + 2) + ids.map((_, i) => String(i + 1).padStart(cw)).join('');
  const out = [c.bold('Pairs: how many hidden transcripts tell each two mistakes apart (0 = they cannot be)'), head];
  let uncompared = false;
  adequacy.matrix.forEach((row, i) => {
    const cells = row.map((n, j) => {
      if (n !== null) return n === 0 ? c.red('0'.padStart(cw)) : String(n).padStart(cw);
      if (i !== j) uncompared = true;
      return (i === j ? '·' : '–').padStart(cw);
    });
    out.push(`  ${pad(labels[i]!, w)}${cells.join('')}`);
  });
  if (uncompared)
    out.push(
      c.dim(
        '  – not compared by whole transcripts: a mistake that only chooses at random is told apart command by command, where it has a choice; one never caught is reported above.',
      ),
    );
  return out;
}

/** One line on the model's type check: done with which TypeScript, or why not. */
export function typeCheckLine(result: PackValidation): string | undefined {
  const check = result.typeCheck;
  if (!check) return undefined;
  if (check.status === 'not-installed')
    return `types: ${result.model} was not type-checked: TypeScript is not installed in or above the pack's folder, nor globally (npm install -g typescript)`;
  return `types: ${result.model} type-checked with TypeScript ${check.version}: ${check.errors === 0 ? 'no type errors' : plural(check.errors, 'type error')}`;
}

export function formatValidation(result: PackValidation, cwd: string, color: boolean): string {
  const c = createColors(color);
  const shownDir = path.relative(cwd, result.dir) || '.';
  const errors = result.problems.filter((p) => p.severity === 'error');
  const warnings = result.problems.filter((p) => p.severity === 'warning');
  const out: string[] = [];
  out.push(`Validating ${shownDir}${result.id ? `: ${result.id} ${result.version} (model ${result.model})` : ''}`, '');
  const loaded = result.counts !== undefined;
  for (const { area, title } of AREAS) {
    const mine = result.problems.filter((p) => p.area === area);
    const bad = mine.filter((p) => p.severity === 'error').length;
    if (bad > 0)
      out.push(
        `  ${c.red('✗')} ${title}: ${plural(bad, 'error')}${mine.length > bad ? `, ${plural(mine.length - bad, 'warning')}` : ''}`,
      );
    else if (mine.length > 0) out.push(`  ${c.yellow('!')} ${title}: ${plural(mine.length, 'warning')}`);
    else if (loaded) out.push(`  ${c.green('✓')} ${title}: ${goodNews(result, area)}`);
    else out.push(`  ${c.dim('-')} ${title}: not checked until lesson.json loads`);
  }
  const types = typeCheckLine(result);
  if (types) out.push(`  ${c.dim('·')} ${types}`);
  if (errors.length > 0)
    out.push('', c.bold(c.red(`Errors (${errors.length}):`)), ...errors.flatMap((p) => problemLines(p, shownDir, c)));
  if (warnings.length > 0)
    out.push(
      '',
      c.bold(c.yellow(`Warnings (${warnings.length}):`)),
      ...warnings.flatMap((p) => problemLines(p, shownDir, c)),
    );
  if (result.adequacy) out.push('', ...formatAdequacy(result.adequacy, c), '', ...formatPairs(result.adequacy, c));
  out.push('');
  if (result.valid) {
    out.push(
      c.green(`Valid${warnings.length ? ` (${plural(warnings.length, 'warning')})` : ''}.`) +
        ` Bundle it with: lesson-companion bundle ${shownDir} -o ${result.id}-${result.version}.lessonpack`,
    );
  } else {
    out.push(
      c.red(
        `Invalid: ${plural(errors.length, 'error')}${warnings.length ? `, ${plural(warnings.length, 'warning')}` : ''}.`,
      ) + ' Fix the errors above and validate again.',
    );
  }
  return out.join('\n') + '\n';
}
