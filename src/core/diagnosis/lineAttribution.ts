/**
 * Which command each traced line belongs to. A traced run (src/node/run/lineTrace.ts) reports, in order,
 * the moments the program was handed a stdin line (`R`), read end of input (`E`) or read stdin in bulk
 * (`B`), finished an answer (`A`) and ended (`X`), each with the learner's lines that ran since the
 * moment before. Two ways to cut that stream into commands:
 *
 * - by reads, when the program takes its input one line at a time and answers each command before it
 *   takes the next: a command runs from the moment its line is handed out to the moment the next one is.
 * - by answers, otherwise (a program that reads all its input first): a command runs from the end of
 *   the previous answer to the end of its own.
 *
 * A command whose share cannot be told apart is left undefined rather than guessed: one that answers
 * nothing, when cutting by answers (its work lands in the next command's share); answers printed
 * together at the end; start-up code that no read separates from the first command; a command the
 * program never got to, or was still running when it was stopped.
 */

export type TraceRecordKind = 'R' | 'E' | 'B' | 'A' | 'X';

export interface TraceRecord {
  readonly kind: TraceRecordKind;
  /** R: the index of the stdin line handed out; A: how many answers are complete now. */
  readonly value: number;
  /** Lines that ran since the previous record, by index into the traced files. */
  readonly hits: ReadonlyMap<number, readonly number[]>;
  /** Answer lines the program had written when the record was made. */
  readonly stdoutLines: number;
}

/** The lines that ran during one command, by index into the traced files. */
export type CommandLines = ReadonlyMap<number, ReadonlySet<number>>;

export interface Attribution {
  /** One entry per command: undefined when its lines cannot be told apart from another command's. */
  readonly perCommand: readonly (CommandLines | undefined)[];
  readonly by: 'reads' | 'answers';
}

class Shares {
  readonly lines: Map<number, Set<number>>[];
  readonly untrusted = new Set<number>();
  readonly reached = new Set<number>();

  constructor(readonly commandCount: number) {
    this.lines = Array.from({ length: commandCount }, () => new Map<number, Set<number>>());
  }

  add(command: number, hits: ReadonlyMap<number, readonly number[]>): void {
    if (command < 0 || command >= this.commandCount) return;
    this.reached.add(command);
    for (const [file, lines] of hits) {
      let set = this.lines[command]!.get(file);
      if (!set) this.lines[command]!.set(file, (set = new Set()));
      for (const line of lines) set.add(line);
    }
  }

  /** Marks a command reached even when none of the learner's lines ran in it (a driver's reset command). */
  reach(command: number): void {
    if (command >= 0 && command < this.commandCount) this.reached.add(command);
  }

  distrust(from: number, to: number): void {
    for (let command = from; command <= to; command++) this.untrusted.add(command);
  }

  result(by: Attribution['by']): Attribution {
    const perCommand = this.lines.map((lines, command) =>
      this.reached.has(command) && !this.untrusted.has(command) ? lines : undefined,
    );
    return { perCommand, by };
  }
}

/** Complete answers before any output: the commands at the start that answer with no line at all. */
function leadingEmptyAnswers(answerLineCounts: readonly number[]): number {
  let done = 0;
  while (done < answerLineCounts.length && answerLineCounts[done] === 0) done++;
  return done;
}

/**
 * True when the program took every command it ran as its own stdin line, in order, and had answered
 * all earlier commands by then (no read-ahead).
 */
function readsLineByLine(
  records: readonly TraceRecord[],
  answerLineCounts: readonly number[],
  commandCount: number,
): boolean {
  const ran = Math.min(commandCount, answerLineCounts.length + 1);
  let next = 0;
  let done = leadingEmptyAnswers(answerLineCounts);
  for (const record of records) {
    if (record.kind === 'A') done = record.value;
    if (record.kind !== 'R') continue;
    if (record.value !== next || done < Math.min(next, answerLineCounts.length)) return false;
    next++;
  }
  return next >= ran;
}

function byReads(records: readonly TraceRecord[], commandCount: number): Attribution {
  const shares = new Shares(commandCount);
  let current = -1;
  let finished = false;
  for (const record of records) {
    if (!finished) shares.add(current, record.hits);
    if (record.kind === 'R') {
      current = record.value;
      shares.reach(current);
    } else if (record.kind === 'E' || record.kind === 'X') {
      finished = true;
    }
  }
  // Stopped from outside (no X): the command it was on has lost its last lines.
  if (records[records.length - 1]?.kind !== 'X' && !finished) shares.distrust(current, current);
  return shares.result('reads');
}

function byAnswers(
  records: readonly TraceRecord[],
  answerLineCounts: readonly number[],
  commandCount: number,
): Attribution {
  const shares = new Shares(commandCount);
  const answered = answerLineCounts.length;
  let current = leadingEmptyAnswers(answerLineCounts);
  // Commands that answer nothing leave no mark: their work is counted with the next command's.
  if (current > 0) shares.distrust(0, current);
  let started = false;
  let finished = false;
  for (const record of records) {
    const ranSoFar = current < commandCount && current <= answered;
    if (!finished && ranSoFar) {
      if (started) shares.add(current, record.hits);
      else if (record.kind === 'A' || record.kind === 'X') {
        // No read came before this answer: the program's start-up is mixed into the first command.
        shares.add(current, record.hits);
        shares.distrust(current, current);
      }
    }
    if (record.kind === 'R' || record.kind === 'B' || record.kind === 'E') started = true;
    if (record.kind === 'A') {
      const done = Math.min(record.value, answered);
      const between = answerLineCounts.slice(current + 1, done);
      if (between.some((count) => count > 0)) {
        // Several answers written at once: their commands cannot be told apart.
        shares.distrust(current, done);
      } else if (done > current + 1) {
        shares.distrust(current + 1, done);
      }
      for (let command = current; command < done; command++) shares.reach(command);
      current = done;
      started = true;
      if (current >= commandCount) finished = true;
    }
    if (record.kind === 'X') finished = true;
  }
  if (records[records.length - 1]?.kind !== 'X') shares.distrust(current, current);
  return shares.result('answers');
}

export function attributeLines(
  records: readonly TraceRecord[],
  answerLineCounts: readonly number[],
  commandCount: number,
): Attribution {
  return readsLineByLine(records, answerLineCounts, commandCount)
    ? byReads(records, commandCount)
    : byAnswers(records, answerLineCounts, commandCount);
}
