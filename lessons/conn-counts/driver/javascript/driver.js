// Driver for lesson conn-counts: runs the learner's least_conn module on the lesson protocol.
//
//     node driver.js path/to/least_conn.js      # then type commands, one per line
//
// For TypeScript the engine transpiles least_conn.ts to CommonJS first and passes the .js path.
//
// Commands (answers on stdout, one line each unless said otherwise):
//
//     RESET               OK             a fresh ConnCounts and an empty backends array
//     BACKENDS b1 b2 ...  OK             the backends for the following PICKs (may be empty)
//     PICK                <name>         pick(counts, backends); NONE if it returned null/undefined
//     OPEN b              OK             connection_opened(counts, b)
//     CLOSE b             OK             connection_closed(counts, b)
//     ACTIVE              name:count     one line per key of counts.active, sorted by name
//
// The protocol names the Python lesson's two exceptions. A RangeError (or an error named ValueError)
// from pick() is answered `ERROR ValueError`. JavaScript has no KeyError: reading a missing Map entry
// gives undefined and the count becomes NaN. So after OPEN/CLOSE the driver checks the count it left;
// if the entry is there but not a whole number, the write is undone and the answer is `ERROR KeyError`,
// the same answer the Python version of that mistake gives. No entry at all is no error: a program that
// skips a backend it has no entry for, or deletes an entry at 0, answers OK, as in Python, and ACTIVE shows
// what it left. Any other error is a real crash, stack and all, so the checker can say "not written yet"
// or show where the code broke.
'use strict';
const path = require('node:path');
const readline = require('node:readline');

if (process.argv.length !== 3) {
  process.stderr.write('usage: node driver.js <path to least_conn.js>\n');
  process.exit(2);
}
const lc = require(path.resolve(process.argv[2]));

const say = (line) => process.stdout.write(`${line}\n`);
const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

let counts = new lc.ConnCounts();
let backends = [];

/**
 * counts.active as the lesson gives it, a Map. One made otherwise (a plain object, `Record<string, number>`) is said
 * as what it is, in the learner's words, where the driver would otherwise fail inside its own code
 * ("counts.active.keys is not a function").
 */
function activeMap() {
  const active = counts.active;
  if (active instanceof Map) return active;
  const kind = active === null ? 'null' : Array.isArray(active) ? 'an array' : typeof active === 'object' ? 'a plain object' : typeof active;
  // Said as the error it is, with no stack: a stack would show the driver's own lines, none of the learner's.
  process.stderr.write(`TypeError: ConnCounts' active must be a Map (the starter's new Map()), with get, set and has; yours is ${kind}\n`);
  process.exit(1);
}

function pickCommand() {
  let chosen;
  try {
    // A copy, like Python's tuple: sorting it in place must not reorder the next PICK's backends.
    chosen = lc.pick(counts, [...backends]);
  } catch (error) {
    if (error instanceof RangeError || (error && error.name === 'ValueError')) return say('ERROR ValueError');
    if (error && error.name === 'KeyError') return say('ERROR KeyError');
    throw error;
  }
  say(chosen === null || chosen === undefined ? 'NONE' : String(chosen));
}

function changeCommand(fn, backend) {
  const active = activeMap();
  const had = active.has(backend);
  const before = active.get(backend);
  try {
    fn(counts, backend);
  } catch (error) {
    if (error && error.name === 'KeyError') return say('ERROR KeyError');
    throw error;
  }
  const after = activeMap().get(backend);
  if (activeMap().has(backend) && !Number.isInteger(after)) {
    if (had) activeMap().set(backend, before);
    else activeMap().delete(backend);
    return say('ERROR KeyError');
  }
  say('OK');
}

function command(words) {
  const [verb, ...args] = words;
  if (verb === 'RESET') {
    counts = new lc.ConnCounts();
    backends = [];
    say('OK');
  } else if (verb === 'BACKENDS') {
    backends = args;
    say('OK');
  } else if (verb === 'PICK') {
    pickCommand();
  } else if ((verb === 'OPEN' || verb === 'CLOSE') && args.length === 1) {
    changeCommand(verb === 'OPEN' ? lc.connection_opened : lc.connection_closed, args[0]);
  } else if (verb === 'ACTIVE') {
    const active = activeMap();
    for (const name of [...active.keys()].sort(byCodePoint)) say(`${name}:${active.get(name)}`);
  } else {
    say('ERROR');
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (raw) => {
  const words = raw.trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) command(words);
});
