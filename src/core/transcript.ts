/**
 * Hidden transcripts, in a format an instructor can write by hand:
 *
 *   # a comment
 *   === worked-trace: the lesson's worked trace
 *   > POOL a b c
 *   OK
 *   > PICK
 *   a
 *
 * `=== name: description` starts a transcript, `> ` starts a command, and the lines after a command up to
 * the next `>` or `===` are its expected answer (none for a command that prints nothing). Blank lines and
 * `#` lines are ignored. One file may hold many transcripts.
 */
export interface TranscriptStep {
  readonly command: string;
  readonly expected: readonly string[];
  /** 1-based line of the command in its file, for authors' error messages. */
  readonly line: number;
}

export interface Transcript {
  readonly name: string;
  readonly description: string;
  readonly file: string;
  readonly line: number;
  readonly steps: readonly TranscriptStep[];
}

export class TranscriptSyntaxError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'TranscriptSyntaxError';
  }
}

const NAME = /^[a-z0-9][a-z0-9._-]*$/;

export function parseTranscripts(text: string, file: string): Transcript[] {
  const transcripts: Transcript[] = [];
  let current: { name: string; description: string; line: number; steps: { command: string; expected: string[]; line: number }[] } | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trimEnd();
    if (line.trim() === '' || line.startsWith('#')) return;
    if (line.startsWith('===')) {
      const header = line.slice(3).trim();
      const colon = header.indexOf(':');
      const name = (colon < 0 ? header : header.slice(0, colon)).trim();
      if (!NAME.test(name)) {
        throw new TranscriptSyntaxError(file, lineNo, `transcript name "${name}" must be lower-case letters, digits, '.', '_' or '-'`);
      }
      if (transcripts.some((t) => t.name === name) || current?.name === name) {
        throw new TranscriptSyntaxError(file, lineNo, `transcript "${name}" is defined twice`);
      }
      if (current) transcripts.push(finish(current, file));
      current = { name, description: colon < 0 ? '' : header.slice(colon + 1).trim(), line: lineNo, steps: [] };
      return;
    }
    if (!current) throw new TranscriptSyntaxError(file, lineNo, 'expected "=== <name>" before the first command');
    if (line.startsWith('>')) {
      const command = line.slice(1).trim();
      if (command === '') throw new TranscriptSyntaxError(file, lineNo, 'a "> " line needs a command');
      current.steps.push({ command, expected: [], line: lineNo });
      return;
    }
    const last = current.steps[current.steps.length - 1];
    if (!last) throw new TranscriptSyntaxError(file, lineNo, `answer "${line}" comes before any "> command"`);
    last.expected.push(line);
  });
  if (current) transcripts.push(finish(current, file));
  if (transcripts.length === 0) throw new TranscriptSyntaxError(file, 1, 'no transcripts in this file');
  return transcripts;
}

function finish(t: { name: string; description: string; line: number; steps: TranscriptStep[] }, file: string): Transcript {
  if (t.steps.length === 0) throw new TranscriptSyntaxError(file, t.line, `transcript "${t.name}" has no commands`);
  return { name: t.name, description: t.description, file, line: t.line, steps: t.steps };
}

export function formatTranscript(t: Pick<Transcript, 'name' | 'description' | 'steps'>): string {
  const out = [`=== ${t.name}${t.description ? `: ${t.description}` : ''}`];
  for (const step of t.steps) out.push(`> ${step.command}`, ...step.expected);
  return out.join('\n') + '\n';
}
