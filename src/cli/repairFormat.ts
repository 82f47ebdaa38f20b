/** The fix under the card in a terminal (`check --repair`): what was verified, then the diff, in colour. */
import { createColors } from 'picocolors';
import { isFound, repairSentence, type RepairResult } from '../core/repair/result';
import { safeText } from '../core/text/text';

export function formatRepair(result: RepairResult, colour: boolean): string {
  const c = createColors(colour);
  const out = ['', c.bold(`Rung 4, a fix for ${result.mistake || 'this check'}:`)];
  if (!isFound(result)) {
    out.push(
      `  ${repairSentence(result)}`,
      c.dim(`  (${result.candidates} edits tried in ${(result.searchMs / 1000).toFixed(1)} s)`),
    );
    return `${out.join('\n')}\n`;
  }
  out.push(`  ${repairSentence(result)}`);
  for (const line of result.patch.replace(/\n$/, '').split('\n')) {
    const shown = safeText(line);
    if (line.startsWith('+++') || line.startsWith('---')) out.push(c.bold(shown));
    else if (line.startsWith('+')) out.push(c.green(shown));
    else if (line.startsWith('-')) out.push(c.red(shown));
    else if (line.startsWith('@@')) out.push(c.cyan(shown));
    else out.push(shown);
  }
  out.push(
    c.dim(`  (${result.edit}; ${result.candidates} edits tried in ${(result.searchMs / 1000).toFixed(1)} s.`),
    c.dim(
      '   To apply it: save the diff as fix.patch here, then `patch -p0 < fix.patch` or `git apply -p0 fix.patch`.)',
    ),
  );
  return `${out.join('\n')}\n`;
}
