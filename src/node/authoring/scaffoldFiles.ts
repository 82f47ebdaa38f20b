/**
 * The files of a new pack (`lesson-companion new`): a small least-connections lesson that validates as
 * it is, so an author starts from green and changes one thing at a time. The transcripts are the
 * fewest that catch each of its five mistakes and tell every two apart (test/node/validate.test.ts
 * checks that they still do).
 */
import { SCAFFOLD_MODEL } from './scaffoldModel';

const PY = `# lesson-companion: __ID__
"""A least-connections load balancer, driven by commands on stdin.

Your job: pick() and done() in the Balancer class. The command loop is written for you.
Try it by hand: python3 balancer.py, then type POOL a b c, PICK, DONE a, STATUS (Ctrl-D ends).
"""
import sys


class Balancer:
    def __init__(self, pool):
        self.pool = list(pool)  # pool order breaks ties
        self.in_flight = {name: 0 for name in self.pool}  # requests sent, not yet done

    def pick(self):
        """The backend with the fewest in flight, counted at once; ties go to pool order; None if empty."""
        raise NotImplementedError("pick() is not written yet")

    def done(self, backend):
        """One request on backend finished. A count at 0 stays 0; names outside the pool are ignored."""
        raise NotImplementedError("done() is not written yet")


def main():
    balancer = Balancer([])
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "POOL":
            balancer = Balancer(args)
            print("OK")
        elif command == "PICK":
            chosen = balancer.pick()
            print("EMPTY" if chosen is None else chosen)
        elif command == "DONE":
            if args:
                balancer.done(args[0])
            print("OK")
        elif command == "STATUS":
            for name in sorted(balancer.in_flight):
                print(f"{name}:{balancer.in_flight[name]}")
        else:
            print("ERROR")


if __name__ == "__main__":
    main()
`;

/** JavaScript and TypeScript share one text: only the type annotations differ. */
function jsLike(typed: boolean): string {
  const t = (annotation: string): string => (typed ? annotation : '');
  return `// lesson-companion: __ID__
/**
 * A least-connections load balancer, driven by commands on stdin.
 *
 * Your job: pick() and done() in the Balancer class. The command loop is written for you.
 * Try it by hand: ${typed ? 'npx lesson-companion run balancer.ts' : 'node balancer.js'}, then type POOL a b c, PICK, DONE a, STATUS (Ctrl-D ends).
 */
${typed ? "import * as readline from 'node:readline';" : "'use strict';\nconst readline = require('node:readline');"}

class Balancer {
${typed ? '  readonly pool: string[];\n  readonly inFlight: Map<string, number>;\n\n' : ''}  constructor(pool${t(': string[]')}) {
    this.pool = [...pool]; // pool order breaks ties
    this.inFlight = new Map(this.pool.map((name) => [name, 0])); // requests sent, not yet done
  }

  /** The backend with the fewest in flight, counted at once; ties go to pool order; null if empty. */
  pick()${t(': string | null')} {
    throw new Error('TODO: write pick()');
  }

  /** One request on backend finished. A count at 0 stays 0; names outside the pool are ignored. */
  done(backend${t(': string')})${t(': void')} {
    throw new Error(\`TODO: write done(\${backend})\`);
  }
}

function main()${t(': void')} {
  let balancer = new Balancer([]);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (raw${t(': string')}) => {
    const [command, ...args] = raw.trim().split(/\\s+/).filter(Boolean);
    if (command === undefined) return;
    if (command === 'POOL') {
      balancer = new Balancer(args);
      console.log('OK');
    } else if (command === 'PICK') {
      console.log(balancer.pick() ?? 'EMPTY');
    } else if (command === 'DONE') {
      if (args.length > 0) balancer.done(args[0]${t('!')});
      console.log('OK');
    } else if (command === 'STATUS') {
      const byCodePoint = (a${t(': string')}, b${t(': string')}) => (a < b ? -1 : a > b ? 1 : 0);
      for (const name of [...balancer.inFlight.keys()].sort(byCodePoint)) console.log(\`\${name}:\${balancer.inFlight.get(name)}\`);
    } else {
      console.log('ERROR');
    }
  });
}

main();
`;
}

const TRANSCRIPTS = `# Hidden transcripts: "=== name: description", then "> command" lines, each followed by its expected answer
# lines (none for a command that prints nothing). \`lesson-companion validate\` checks them against the reference.

=== ties-and-counting: each pick counts at once, and ties go to pool order, not name order
> POOL b a c
OK
> PICK
b
> PICK
a
> DONE b
OK
> PICK
b
> STATUS
a:1
b:1
c:0

=== done-and-strangers: a count at 0 stays 0, and a name outside the pool changes nothing
> POOL a b
OK
> DONE a
OK
> PICK
a
> STATUS
a:1
b:0
> DONE ghost
OK
> STATUS
a:1
b:0

=== empty-pool: PICK on an empty pool answers EMPTY
> POOL
OK
> PICK
EMPTY
> STATUS
`;

/** The scaffold's read order: the starter's parts, in the order a learner reads them. */
const SCAFFOLD_READ_ORDER = [
  { title: "The file's opening comment", symbol: '#top' },
  {
    title: 'The Balancer class: the pool and one counter per backend',
    symbol: 'Balancer',
    pattern: 'class\\s+Balancer',
  },
  { title: 'pick(): fewest in flight wins; count it at once', symbol: 'pick' },
  { title: 'done(): never below zero; strangers ignored', symbol: 'done' },
  { title: 'main(): the command loop', symbol: 'main' },
];

/** The scaffold's mistakes, each caught by mutants of its reference model (model/model.js). */
const SCAFFOLD_MISTAKES = [
  {
    id: 'tiebreak',
    title: 'Wrong tiebreak',
    explanation:
      'A tie must go to the backend listed first in the pool; yours goes by name, to the last one, or rotates.',
    function: 'pick',
    hint: 'Keep the first backend with the smallest count; replace it only on a strictly smaller count.',
    mutants: ['tiebreak-name', 'tiebreak-last', 'tiebreak-rotate'],
    step: 3,
  },
  {
    id: 'late-increment',
    title: 'The pick is counted too late',
    explanation: "The chosen backend's count must go up the moment it is picked.",
    function: 'pick',
    hint: "Add one to the winner's count inside pick(), before you return it.",
    mutants: ['no-increment'],
    step: 3,
  },
  {
    id: 'negative-count',
    title: 'A count goes below zero',
    explanation: 'DONE for a backend with nothing in flight must leave its count at 0.',
    function: 'done',
    hint: 'Only subtract when the count is above zero.',
    mutants: ['negative-count'],
    step: 4,
  },
  {
    id: 'unknown-backend',
    title: 'A name outside the pool is not ignored',
    explanation: 'DONE for a name that is not in the pool must change nothing; yours crashes or adds it.',
    function: 'done',
    hint: 'Check that the backend is in the pool before you touch its count.',
    mutants: ['unknown-crash', 'unknown-added'],
    step: 4,
  },
  {
    id: 'empty-pool',
    title: 'PICK on an empty pool crashes',
    explanation: 'With no backends the answer is EMPTY.',
    function: 'pick',
    hint: 'Return None/null for an empty pool before looking for a minimum.',
    mutants: ['empty-crash'],
    step: 3,
  },
];

function manifest(id: string): string {
  const lesson = {
    id,
    version: '0.1.0',
    title: `TODO: the title of ${id}`,
    summary: 'TODO: one sentence on what the learner builds.',
    coreQuestion:
      'TODO: the one question this lesson answers. Example: what single number per backend lets a balancer send work to whoever is least busy right now?',
    outcomes: ['TODO: what the learner can do or explain afterwards'],
    model: 'model/model.js',
    protocol:
      'Your program reads one command per line on stdin and answers on stdout.\n\n| command | answer |\n|---|---|\n| `POOL <b1> <b2> ...` | `OK`; replaces the pool, every count starts at 0 |\n| `PICK` | the backend with the fewest in flight, counted at once; ties go to pool order; `EMPTY` for an empty pool |\n| `DONE <backend>` | `OK`; a count at 0 stays 0, a name outside the pool is ignored |\n| `STATUS` | one `<backend>:<in_flight>` line per backend, sorted by name |',
    starters: {
      python: { dir: 'starter/python', main: 'balancer.py' },
      javascript: { dir: 'starter/javascript', main: 'balancer.js' },
      typescript: { dir: 'starter/typescript', main: 'balancer.ts' },
    },
    transcripts: ['transcripts/hidden.txt'],
    readOrder: SCAFFOLD_READ_ORDER,
    failureQuestions: [],
    quiz: [],
    doneWhen: ['Every hidden transcript passes.'],
    mistakes: SCAFFOLD_MISTAKES,
    fuzz: { transcripts: 40, length: 16 },
  };
  return JSON.stringify(lesson, null, 2) + '\n';
}

/** The new pack's files, path relative to the pack folder → text. */
export function scaffoldFiles(id: string): Map<string, string> {
  return new Map([
    ['lesson.json', manifest(id)],
    ['model/model.js', SCAFFOLD_MODEL.replace('__ID__', id)],
    ['transcripts/hidden.txt', TRANSCRIPTS],
    ['starter/python/balancer.py', PY.replace('__ID__', id)],
    ['starter/javascript/balancer.js', jsLike(false).replace('__ID__', id)],
    ['starter/typescript/balancer.ts', jsLike(true).replace('__ID__', id)],
    [
      'authoring/README.md',
      `# Authoring notes for ${id}\n\nThis folder is for you, not for learners: \`lesson-companion bundle\` leaves it out.\nKeep your reference solutions and notes here.\n`,
    ],
  ]);
}
