// lesson-companion: least-connections
/**
 * A least-connections load balancer, driven by commands on stdin.
 *
 * The command loop at the bottom is written for you. Your job is the bookkeeping:
 * `pick` and `done` in the Balancer class.
 *
 * Run it by hand and type commands, one per line (Ctrl-D to finish):
 *
 *     npx lesson-companion run balancer.ts
 *     POOL a b c
 *     PICK
 *     DONE a
 *     STATUS
 */
import * as readline from 'node:readline';

class Balancer {
  /** Pool order matters: a tie goes to the backend listed first. */
  readonly pool: string[];
  /** One counter per backend: requests sent there that have not finished yet. */
  readonly inFlight: Map<string, number>;

  constructor(pool: string[]) {
    this.pool = [...pool];
    this.inFlight = new Map(this.pool.map((name) => [name, 0]));
  }

  /**
   * Choose the backend with the fewest requests in flight and count the new request on it.
   * Ties go to the first of the tied backends in pool order.
   * Return the chosen name, or null when the pool is empty.
   */
  pick(): string | null {
    throw new Error('TODO: write pick()');
  }

  /**
   * One request on `backend` has finished.
   * A count at 0 stays at 0. A name that is not in the pool is ignored.
   */
  done(backend: string): void {
    throw new Error('TODO: write done()');
  }
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function main(): void {
  let balancer = new Balancer([]);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (raw: string) => {
    const words = raw.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return;
    const [command, ...args] = words;
    if (command === 'POOL') {
      balancer = new Balancer(args);
      console.log('OK');
    } else if (command === 'PICK') {
      const chosen = balancer.pick();
      console.log(chosen ?? 'EMPTY');
    } else if (command === 'DONE') {
      if (args.length > 0) balancer.done(args[0]!);
      console.log('OK');
    } else if (command === 'STATUS') {
      // Sorted by name, whatever the pool order: the two orders are different on purpose.
      for (const name of [...balancer.inFlight.keys()].sort(byCodePoint)) {
        console.log(`${name}:${balancer.inFlight.get(name)}`);
      }
    } else {
      console.log('ERROR');
    }
  });
}

main();
