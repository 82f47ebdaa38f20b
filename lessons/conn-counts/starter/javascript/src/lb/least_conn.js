// lesson-companion: conn-counts
/**
 * Least connections, kept as a counter.
 *
 * Round robin walks a blind index: it never learns which backend is still busy. Least
 * connections keeps exactly one integer per backend instead -- how many requests are in
 * flight there right now -- and sends the next request to the backend with the smallest one.
 *
 * This module holds that counter and the three operations on it:
 *
 *     const counts = new ConnCounts();            // every backend starts with no entry, i.e. 0
 *     const chosen = pick(counts, ['s1', 's2']);  // reads the counts, never changes them
 *     connection_opened(counts, chosen);          // the caller routes a request there
 *     connection_closed(counts, chosen);          // ... and reports when it finishes
 *
 * pick() only *reads*. Keeping the counts honest is the caller's job: call
 * connection_opened() once a request has really been routed, and connection_closed()
 * once it is over. If a close is lost (a request hangs, a backend dies unnoticed) the
 * count stays inflated; real balancers add timeouts and health checks for that, which
 * this module leaves out on purpose.
 *
 * The function names match the lesson text (and its Python version) on purpose.
 *
 * Run the walkthrough from the workspace root once the three functions are written:
 *
 *     node examples/lb/session_02_walkthrough.js
 */
'use strict';

/**
 * In-flight connections per backend name. A backend with no entry counts as 0.
 * The Map is created per instance, so two ConnCounts never share their counts.
 */
class ConnCounts {
  constructor() {
    /** @type {Map<string, number>} */
    this.active = new Map();
  }
}

/**
 * Return the backend with the fewest active connections.
 *
 * Rules:
 * - empty `backends`: throw a RangeError (there is nothing to pick);
 * - a backend missing from counts.active has 0 connections;
 * - the winner is the minimum by (count, name): a tie goes to the name that sorts
 *   first, whatever order `backends` lists them in;
 * - pick() never changes counts.active.
 *
 * @param {ConnCounts} counts
 * @param {readonly string[]} backends
 * @returns {string}
 */
function pick(counts, backends) {
  throw new Error('TODO: write pick()');
}

/**
 * A request was routed to `backend`: add one to its count.
 * A backend with no entry yet starts from 0, so the first open makes it 1.
 *
 * @param {ConnCounts} counts
 * @param {string} backend
 */
function connection_opened(counts, backend) {
  throw new Error('TODO: write connection_opened()');
}

/**
 * A request on `backend` finished: take one off its count, never below 0.
 * A backend with no entry yet ends up with an entry of 0. Without the floor, a stray
 * close (say, after a restart wiped the counts) would push a count negative and make
 * that backend look more attractive than an idle one to every later pick().
 *
 * @param {ConnCounts} counts
 * @param {string} backend
 */
function connection_closed(counts, backend) {
  throw new Error('TODO: write connection_closed()');
}

module.exports = { ConnCounts, pick, connection_opened, connection_closed };
