// lesson-companion: health-checks
/**
 * A least-connections load balancer that skips unhealthy backends and caps each one, driven by stdin.
 *
 * The command loop at the bottom is written for you, and so are POOL, CAP and STATUS. Your job is the
 * bookkeeping in the Balancer class: `pick`, `done`, `down` and `up`.
 *
 * Run it by hand and type commands, one per line (Ctrl-D to finish):
 *
 *     node balancer.js
 *     POOL a b c
 *     PICK
 *     DOWN a
 *     PICK
 *     STATUS
 */
'use strict';
const readline = require('node:readline');

// What pick() returns when it cannot hand out a backend; the command loop prints it as it is.
const EMPTY = 'EMPTY'; // nowhere to send: the pool is empty, or no backend is healthy
const BUSY = 'BUSY'; // somewhere to send, but every healthy backend is at the cap: the request waits

class Balancer {
  constructor() {
    // Pool order matters: a tie goes to the backend listed first.
    this.pool = [];
    // One counter per backend: requests sent there that have not finished yet.
    this.inFlight = new Map();
    // One health flag per backend, set by DOWN and UP (a health checker would call them).
    this.healthy = new Map();
    // The most requests one backend may have in flight. 0 means no limit.
    this.cap = 0;
  }

  /** POOL: a new pool, every backend healthy with 0 in flight. The cap stays as it was. */
  replace(names) {
    this.pool = [...names];
    this.inFlight = new Map(this.pool.map((name) => [name, 0]));
    this.healthy = new Map(this.pool.map((name) => [name, true]));
  }

  /** CAP: the most requests one backend may have in flight; 0 means no limit. */
  limit(cap) {
    this.cap = cap;
  }

  /**
   * Choose a backend for a new request and count the request on it at once.
   *
   * Only a healthy backend with fewer than `cap` requests in flight may take it (any number when cap is 0).
   * Among those, the fewest in flight wins; a tie goes to the first of them in pool order.
   * Return its name; EMPTY when the pool is empty or no backend is healthy; BUSY when some backend is
   * healthy but every healthy one is at the cap.
   */
  pick() {
    throw new Error('pick() is not written yet');
  }

  /**
   * One request on `backend` has finished, whether the backend is healthy or down.
   * A count at 0 stays at 0. A name that is not in the pool is ignored.
   */
  done(backend) {
    throw new Error('done() is not written yet');
  }

  /**
   * The health check failed: no new requests for `backend` until it is up again.
   * Its requests already in flight still count, and still finish. A name not in the pool is ignored.
   */
  down(backend) {
    throw new Error('down() is not written yet');
  }

  /**
   * The health check passes again: `backend` may take new requests.
   * Its in-flight count stays what it is. A name not in the pool is ignored.
   */
  up(backend) {
    throw new Error('up() is not written yet');
  }
}

function byCodePoint(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

function main() {
  const balancer = new Balancer();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (raw) => {
    const words = raw.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return;
    const [command, ...args] = words;
    if (command === 'POOL') {
      balancer.replace(args);
      console.log('OK');
    } else if (command === 'CAP') {
      if (args.length === 1 && /^\d+$/.test(args[0])) {
        balancer.limit(Number(args[0]));
        console.log('OK');
      } else {
        console.log('ERROR');
      }
    } else if (command === 'DOWN') {
      if (args.length > 0) balancer.down(args[0]);
      console.log('OK');
    } else if (command === 'UP') {
      if (args.length > 0) balancer.up(args[0]);
      console.log('OK');
    } else if (command === 'PICK') {
      console.log(balancer.pick());
    } else if (command === 'DONE') {
      if (args.length > 0) balancer.done(args[0]);
      console.log('OK');
    } else if (command === 'STATUS') {
      // Sorted by name, whatever the pool order; " down" marks a backend that is not healthy.
      for (const name of [...balancer.inFlight.keys()].sort(byCodePoint)) {
        const mark = balancer.healthy.get(name) === false ? ' down' : '';
        console.log(`${name}:${balancer.inFlight.get(name)}${mark}`);
      }
    } else {
      console.log('ERROR');
    }
  });
}

main();
