/**
 * Answers that end in `\r` (a Windows line ending, `\r\n`) or in trailing spaces are right answers with a
 * byte too many. Compared as they are, every answer differs, and the differences look like anything: a
 * mistake, or state that leaks between transcripts, because the answers no longer split into commands. So
 * the check takes those bytes off every line of the program's output before it compares anything, and
 * says so as one problem, with the byte shown. Pure.
 */
import type { ProcessResult } from './process';
import type { Problem } from '../report/report';

/** What was taken off, over every run of the check. */
export interface LineEndings {
  /** Lines that ended in trailing bytes, and lines in all. */
  readonly endedOdd: number;
  readonly lines: number;
  /** The first such line as printed, its trailing bytes included. */
  readonly example: string;
  /** Each trailing byte seen, escaped: `\r`, ` `, `\t`. */
  readonly bytes: readonly string[];
}

const TRAILING = /[ \t\r]+$/;

const escaped = (byte: string): string => (byte === '\r' ? '\\r' : byte === '\t' ? '\\t' : ' ');
const codes: Record<string, string> = { '\\r': '0x0D, a carriage return', '\\t': '0x09, a tab', ' ': '0x20, a space' };

/** Keeps the tally of trailing bytes over a check's runs, and gives each run's stdout without them. */
export class LineEndingFilter {
  private endedOdd = 0;
  private lines = 0;
  private example: string | undefined;
  private readonly bytes = new Set<string>();

  clean(result: ProcessResult): ProcessResult {
    if (result.stdout === '') return result;
    const lines = result.stdout.split('\n');
    const last = lines.length - 1;
    let changed = false;
    const cleaned = lines.map((line, i) => {
      if (i === last && line === '') return line;
      this.lines += 1;
      const match = TRAILING.exec(line);
      if (!match) return line;
      this.endedOdd += 1;
      this.example ??= line;
      for (const byte of match[0]) this.bytes.add(escaped(byte));
      changed = true;
      return line.slice(0, match.index);
    });
    return changed ? { ...result, stdout: cleaned.join('\n') } : result;
  }

  seen(): LineEndings | undefined {
    if (this.endedOdd === 0 || this.example === undefined) return undefined;
    return { endedOdd: this.endedOdd, lines: this.lines, example: this.example, bytes: [...this.bytes] };
  }
}

/** "Every answer ends in `\r` (0x0D, a carriage return), e.g. `EMPTY\r\n`." */
export function lineEndingsProblem(seen: LineEndings, restRight: boolean): Problem {
  const shown = seen.example.replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  const bytes = seen.bytes.map((b) => `\`${b === ' ' ? '␠' : b}\` (${codes[b]})`).join(' and ');
  const how =
    seen.endedOdd === seen.lines
      ? 'Every answer of your program ends in'
      : `${seen.endedOdd} of your program's ${seen.lines} answer lines end in`;
  const windows = seen.bytes.includes('\\r');
  return {
    kind: 'line-endings',
    message: `${how} ${bytes} before the newline, e.g. \`${shown}\\n\`. Answers are compared byte for byte, so those lines differ from the reference. ${restRight ? 'Without that byte, every answer is right.' : 'The check below compares the answers without it.'}`,
    advice: windows
      ? 'Print with a plain "\\n" line ending: in Python, print() or sys.stdout.write(line + "\\n") (not "\\r\\n", and open no stream in newline="\\r\\n" mode); in JavaScript, "\\n", not os.EOL on Windows.'
      : 'Print each answer with nothing after it: no trailing space or tab (in Python, print(a, b) puts a space between, not after; join the parts yourself).',
  };
}
