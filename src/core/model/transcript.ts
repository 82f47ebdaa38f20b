/**
 * Hidden transcripts, in a format an instructor can write by hand:
 *
 *   # a comment
 *   === worked-trace: the lesson's worked trace
 *   > START a b c
 *   OK
 *   > CHOOSE
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

/**
 * How much one transcript file may hold. Every hidden transcript is simulated by every mutant at each
 * validate and sent to the learner's program at each check, so a pack from someone else must not be able
 * to make that unbounded (a command of 250,000 words took minutes). Real transcripts use a few dozen
 * commands of a few words; a long stress transcript fits easily.
 */
export const TRANSCRIPT_LIMITS = {
  lineChars: 1000,
  wordsPerCommand: 200,
  commandsPerTranscript: 10_000,
  answerLinesPerCommand: 1000,
  transcriptsPerFile: 1000,
} as const;

/** Control characters other than tab: a transcript is plain text, and its lines reach the learner's screen. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export function parseTranscripts(text: string, file: string): Transcript[] {
  const transcripts: Transcript[] = [];
  const names = new Set<string>();
  let current:
    | {
        name: string;
        description: string;
        line: number;
        steps: { command: string; expected: string[]; line: number }[];
      }
    | undefined;
  // A byte order mark (Windows editors) is not part of the first line; CR alone (classic Mac) ends a line too.
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const fail = (reason: string): never => {
      throw new TranscriptSyntaxError(file, lineNo, reason);
    };
    if (raw.length > TRANSCRIPT_LIMITS.lineChars)
      fail(
        `the line is ${raw.length} characters long; a transcript line may be at most ${TRANSCRIPT_LIMITS.lineChars}`,
      );
    const control = CONTROL.exec(raw);
    if (control)
      fail(
        `the line holds a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) at column ${control.index + 1}; transcripts are plain text, one command or answer per line`,
      );
    const line = raw.trimEnd();
    if (line.trim() === '' || line.startsWith('#')) return;
    if (line.startsWith('===')) {
      const header = line.slice(3).trim();
      const colon = header.indexOf(':');
      const name = (colon < 0 ? header : header.slice(0, colon)).trim();
      if (!NAME.test(name)) fail(`transcript name "${name}" must be lower-case letters, digits, '.', '_' or '-'`);
      if (names.has(name)) fail(`transcript "${name}" is defined twice`);
      if (names.size >= TRANSCRIPT_LIMITS.transcriptsPerFile)
        fail(
          `this file holds more than ${TRANSCRIPT_LIMITS.transcriptsPerFile} transcripts; split them over several files`,
        );
      names.add(name);
      if (current) transcripts.push(finish(current, file));
      current = { name, description: colon < 0 ? '' : header.slice(colon + 1).trim(), line: lineNo, steps: [] };
      return;
    }
    if (!current) return fail('expected "=== <name>" before the first command');
    if (line.startsWith('>')) {
      const command = line.slice(1).trim();
      if (command === '') fail('a "> " line needs a command');
      const words = command.split(/\s+/).length;
      if (words > TRANSCRIPT_LIMITS.wordsPerCommand)
        fail(`the command has ${words} words; a command may have at most ${TRANSCRIPT_LIMITS.wordsPerCommand}`);
      if (current.steps.length >= TRANSCRIPT_LIMITS.commandsPerTranscript) {
        fail(
          `transcript "${current.name}" has more than ${TRANSCRIPT_LIMITS.commandsPerTranscript} commands; split it into several transcripts`,
        );
      }
      current.steps.push({ command, expected: [], line: lineNo });
      return;
    }
    const last = current.steps[current.steps.length - 1];
    if (!last) return fail(`answer "${line}" comes before any "> command"`);
    if (last.expected.length >= TRANSCRIPT_LIMITS.answerLinesPerCommand)
      fail(
        `the answer to \`${last.command}\` (line ${last.line}) has more than ${TRANSCRIPT_LIMITS.answerLinesPerCommand} lines`,
      );
    last.expected.push(line);
  });
  if (current) transcripts.push(finish(current, file));
  if (transcripts.length === 0) throw new TranscriptSyntaxError(file, 1, 'no transcripts in this file');
  return transcripts;
}

function finish(
  t: { name: string; description: string; line: number; steps: TranscriptStep[] },
  file: string,
): Transcript {
  if (t.steps.length === 0) throw new TranscriptSyntaxError(file, t.line, `transcript "${t.name}" has no commands`);
  return { name: t.name, description: t.description, file, line: t.line, steps: t.steps };
}

export function formatTranscript(t: Pick<Transcript, 'name' | 'description' | 'steps'>): string {
  const out = [`=== ${t.name}${t.description ? `: ${t.description}` : ''}`];
  for (const step of t.steps) out.push(`> ${step.command}`, ...step.expected);
  return out.join('\n') + '\n';
}
