/**
 * The files of a blank pack (`lesson-companion new <id> --blank`): one command, one mistake, a TypeScript
 * model typed by the package's own `lesson-companion/model` types, and starters in three languages. It
 * validates as it is; it is the smallest pack there is, to grow into any exercise (not only a balancer).
 */

const MODEL = `/**
 * The reference model of lesson "__ID__": the truth every learner program is checked against.
 *
 * A pure state machine: the engine calls step(state, command, mutations) once per command and compares the
 * answer with what the learner's program printed. Each mutation is a known mistake switched on inside the
 * same machine; the "mistakes" in lesson.json name them. Pure means: no I/O, no clock, no Math.random.
 * The engine runs this file with nothing but the language (no require, no process); the \`import type\`
 * below is erased. Its types come with the lesson-companion package (docs/authoring.md, "The interface").
 *
 * The protocol: RESET answers OK and sets the total to 0; ADD <n> adds the whole number n and answers the
 * new total.
 */
import type { Random, ReferenceModel, StepResult } from 'lesson-companion/model';

interface CounterState {
  readonly total: number;
}

const NUMBER = /^-?\\d+$/;

function add(state: CounterState, n: number, on: ReadonlySet<string>, observed?: readonly string[]): StepResult<CounterState> {
  const total = state.total + n;
  // The mistake: answering the total from before the addition.
  const answer = on.has('total-before-add') ? state.total : total;
  // Follow the program: the total it printed is the total from here on (under this mutant's reading of it).
  const printed = observed?.length === 1 && NUMBER.test(observed[0]!) ? Number(observed[0]) : undefined;
  const next = printed === undefined ? total : on.has('total-before-add') ? printed + n : printed;
  return { state: { total: next }, answer: { kind: 'lines', lines: [String(answer)] } };
}

export const model: ReferenceModel<CounterState> = {
  id: '__ID__',
  description: 'RESET / ADD <n>: a running total',
  mutations: [{ id: 'total-before-add', description: 'ADD answers the total from before the addition' }],
  // Every transcript runs after this command, so many transcripts share one process.
  resetCommand: 'RESET',
  resetAnswer: ['OK'],
  // The protocol's commands and their arguments ("name", "number": a whole number, "names": a list, last only).
  // Generated and shrunk transcripts stay inside it, and validate checks every hidden transcript against it.
  grammar: { RESET: [], ADD: ['number'] },
  initial: () => ({ total: 0 }),
  step(state, command, on, observed) {
    const [verb, ...args] = command.trim().split(/\\s+/);
    if (verb === 'RESET') return { state: { total: 0 }, answer: { kind: 'lines', lines: ['OK'] } };
    if (verb === 'ADD' && args.length === 1 && NUMBER.test(args[0]!)) return add(state, Number(args[0]), on, observed);
    return { state, answer: { kind: 'lines', lines: ['ERROR'] } };
  },
  snapshot: (state) => ({ total: state.total }),
  answerShape: () => ({ kind: 'one' }),
  isAnswerLine: (line) => line === 'OK' || line === 'ERROR' || NUMBER.test(line),
  // Random transcripts for the generated tests: use only \`random\`, so a seed reproduces.
  generate(random: Random, length: number): string[] {
    return Array.from({ length }, () => \`ADD \${random.int(10)}\`);
  },
};
`;

const PY = `# lesson-companion: __ID__
"""A running total, driven by commands on stdin.

Your job: add(). The command loop is written for you.
Try it by hand: python3 counter.py, then type ADD 2, ADD 3 (Ctrl-D ends).
"""
import sys


class Counter:
    def __init__(self):
        self.total = 0

    def add(self, n):
        """Add n to the total and return the new total."""
        raise NotImplementedError("add() is not written yet")


def main():
    counter = Counter()
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words == ["RESET"]:
            counter = Counter()
            print("OK")
        elif words[0] == "ADD" and len(words) == 2:
            print(counter.add(int(words[1])))
        else:
            print("ERROR")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
`;

function jsLike(typed: boolean): string {
  const t = (annotation: string): string => (typed ? annotation : '');
  return `// lesson-companion: __ID__
/**
 * A running total, driven by commands on stdin.
 *
 * Your job: add(). The command loop is written for you.
 * Try it by hand: ${typed ? 'npx lesson-companion run counter.ts' : 'node counter.js'}, then type ADD 2, ADD 3 (Ctrl-D ends).
 */
${typed ? "import * as readline from 'node:readline';" : "'use strict';\nconst readline = require('node:readline');"}

class Counter {
${typed ? '  total: number;\n\n' : ''}  constructor() {
    this.total = 0;
  }

  /** Add n to the total and return the new total. */
  add(n${t(': number')})${t(': number')} {
    throw new Error(\`TODO: write add(\${n})\`);
  }
}

function main()${t(': void')} {
  let counter = new Counter();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (raw${t(': string')}) => {
    const words = raw.trim().split(/\\s+/).filter(Boolean);
    if (words.length === 0) return;
    if (words.length === 1 && words[0] === 'RESET') {
      counter = new Counter();
      console.log('OK');
    } else if (words[0] === 'ADD' && words.length === 2) {
      console.log(String(counter.add(Number(words[1]))));
    } else {
      console.log('ERROR');
    }
  });
}

main();
`;
}

const TRANSCRIPTS = `# Hidden transcripts: "=== name: description", then "> command" lines, each followed by its expected answer.
# Every transcript runs after RESET. \`lesson-companion validate\` checks them against the reference model.

=== adds-up: each ADD answers the new total
> ADD 2
2
> ADD 3
5
`;

function manifest(id: string): string {
  const lesson = {
    id,
    version: '0.1.0',
    title: `TODO: the title of ${id}`,
    summary: 'TODO: one sentence on what the learner builds.',
    coreQuestion: 'TODO: the one question this lesson answers.',
    outcomes: ['TODO: what the learner can do or explain afterwards'],
    model: 'model/model.ts',
    protocol:
      'Your program reads one command per line on stdin and answers on stdout.\n\n| command | answer |\n|---|---|\n| `RESET` | `OK`; the total is 0 |\n| `ADD <n>` | the new total |',
    starters: {
      python: { dir: 'starter/python', main: 'counter.py' },
      javascript: { dir: 'starter/javascript', main: 'counter.js' },
      typescript: { dir: 'starter/typescript', main: 'counter.ts' },
    },
    transcripts: ['transcripts/hidden.txt'],
    readOrder: [
      { title: "The file's opening comment", symbol: '#top' },
      { title: 'add(): the new total', symbol: 'add' },
    ],
    failureQuestions: [],
    quiz: [],
    doneWhen: ['Every hidden transcript passes.'],
    mistakes: [
      {
        id: 'total-before-add',
        title: 'ADD answers the old total',
        explanation: 'ADD must answer the total after the addition; yours answers the one before it.',
        function: 'add',
        hint: 'Add first, then return the total.',
        mutants: ['total-before-add'],
        step: 2,
      },
    ],
    fuzz: { transcripts: 20, length: 8 },
  };
  return JSON.stringify(lesson, null, 2) + '\n';
}

/** The blank pack's files, path relative to the pack folder → text. */
export function blankScaffoldFiles(id: string): Map<string, string> {
  return new Map([
    ['lesson.json', manifest(id)],
    ['model/model.ts', MODEL.replace('__ID__', id).replace('__ID__', id)],
    ['transcripts/hidden.txt', TRANSCRIPTS],
    ['starter/python/counter.py', PY.replace('__ID__', id)],
    ['starter/javascript/counter.js', jsLike(false).replace('__ID__', id)],
    ['starter/typescript/counter.ts', jsLike(true).replace('__ID__', id)],
    [`authoring/${id}.answers.json`, JSON.stringify({ lesson: id, questions: {} }, null, 2) + '\n'],
    [
      'authoring/README.md',
      `# Authoring notes for ${id}\n\nThis folder is for you, not for learners: \`lesson-companion bundle\` leaves it out.\nKeep your reference solutions, notes and the plain answers to your questions (${id}.answers.json) here.\n`,
    ],
  ]);
}
