/**
 * A learner's answer can be a whole flood on one line. Shown text is cut at about 80 characters, with the
 * full length said, so a trace stays readable; the full text stays in the report's `details`.
 */
export const SHOWN_ANSWER_CHARS = 80;

export function clipLine(line: string, max = SHOWN_ANSWER_CHARS): string {
  const chars = [...line];
  if (chars.length <= max) return line;
  return `${chars.slice(0, max - 1).join('')}… (${chars.length.toLocaleString('en-US')} characters)`;
}

/** The lines clipped, and whether any was. */
export function clipLines(lines: readonly string[], max = SHOWN_ANSWER_CHARS): { lines: string[]; clipped: boolean } {
  let clipped = false;
  const out = lines.map((line) => {
    const shown = clipLine(line, max);
    if (shown !== line) clipped = true;
    return shown;
  });
  return { lines: out, clipped };
}
