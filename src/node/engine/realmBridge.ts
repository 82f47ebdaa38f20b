/**
 * The only way values cross into a pack model's `vm` realm. Everything the model is handed is made in its
 * own realm: a host object or function would lead it, through `.constructor.constructor`, to this realm's
 * `Function`, and from there to `process`. Host functions the model needs (its `require`, the random
 * source) are held in closures of functions made in its realm, and they hand back only primitives or
 * values of its realm. The model's functions are called through a strict function of its realm, so
 * `fn.caller` shows nothing of ours; and its realm's `Error.prepareStackTrace` is fixed, so no stack frame
 * of ours reaches it as an object. The realm's functions that call ours (`require`, the random source) catch
 * whatever ours throw without ever binding it (a stack overflow or a too-long string in our code throws an
 * error of our realm), and throw an error of the model's realm instead.
 */
import * as vm from 'node:vm';
import type { Random } from '../../core/model/model';

export interface RealmBridge {
  /** A fresh `{ exports: {} }` of the model's realm. */
  module(): { exports: unknown };
  /** The model's `require`: `load` answers with `{ value }` (a value of the model's realm) or `{ error }` (a message). */
  require(load: (specifier: string) => { value?: unknown; error?: string }): unknown;
  /** `fn.call(self, ...args)`, made from the model's realm. */
  call(fn: unknown, self: unknown, ...args: unknown[]): unknown;
  /** `call` with a model step's four arguments: no list of arguments made on either side (a million calls a check). */
  step(fn: unknown, self: unknown, state: unknown, command: string, on: unknown, observed: unknown): unknown;
  /** A Set of strings of the model's realm. */
  set(values: Iterable<string>): ReadonlySet<string>;
  /** A list of strings of the model's realm. */
  lines(values: readonly string[]): string[];
  /** A random source of the model's realm that draws from `random`. */
  random(random: Random): Random;
  /** A copy of a JSON value (a scenario's params) made in the model's realm. */
  json(value: unknown): unknown;
}

const BRIDGE_SOURCE = `'use strict';
Object.defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });
({
  module: () => ({ exports: {} }),
  box: () => Object.create(null),
  require: (load) => function require(specifier) {
    const text = String(specifier);
    let answer;
    // Whatever the loader throws (a stack overflow in it, a string too long for it) is an object of the
    // host's realm: it is never bound here, and the model gets an error of its own realm instead.
    try {
      answer = load(text);
    } catch {
      throw new Error('the import of "' + text.slice(0, 200) + '" failed inside the model loader');
    }
    const error = answer.error;
    if (typeof error === 'string') throw new Error(error);
    return answer.value;
  },
  call: (fn, self, ...args) => Reflect.apply(fn, self, args),
  step: (fn, self, state, command, on, observed) => Reflect.apply(fn, self, [state, command, on, observed]),
  set: (json) => new Set(JSON.parse(json)),
  lines: (json) => JSON.parse(json),
  frozenLines: (json) => Object.freeze(JSON.parse(json)),
  random: (int) => {
    const draw = (n) => {
      const bound = +n;
      let drawn;
      try {
        drawn = int(bound);
      } catch {
        throw new Error('the random source failed');
      }
      return +drawn;
    };
    return Object.freeze({ int: draw, pick: (items) => items[draw(items.length)] });
  },
})`;

interface RealmSide {
  module(): { exports: unknown };
  box(): { value?: unknown; error?: string };
  require(load: (specifier: string) => unknown): unknown;
  call(fn: unknown, self: unknown, ...args: unknown[]): unknown;
  step(fn: unknown, self: unknown, state: unknown, command: string, on: unknown, observed: unknown): unknown;
  set(json: string): ReadonlySet<string>;
  lines(json: string): string[];
  frozenLines(json: string): readonly string[];
  random(int: (n: number) => number): Random;
}

export function realmBridge(context: vm.Context): RealmBridge {
  const side = vm.runInContext(BRIDGE_SOURCE, context) as RealmSide;
  const sets = new Map<string, ReadonlySet<string>>();
  // The diagnosis hands the model the same few Sets and observed lists at every step of every candidate's walk
  // (a million steps in a check of a random program): each is copied into the realm once, found again by
  // identity (and its size, as a read-only value must keep). The lists are frozen in the realm: a model that
  // changed one would change it for the next step's call.
  const setsSeen = new WeakMap<object, { size: number; made: ReadonlySet<string> }>();
  const linesSeen = new WeakMap<object, { length: number; made: readonly string[] }>();
  const realmSet = (values: Iterable<string>): ReadonlySet<string> => {
    const key = JSON.stringify(Array.from(values, String));
    let made = sets.get(key);
    if (!made) {
      made = side.set(key);
      if (sets.size < 1024) sets.set(key, made);
    }
    return made;
  };
  return {
    module: () => side.module(),
    // The answer object is read by the realm's code: it must not be an object of ours either.
    require: (load) => side.require((specifier) => answerIn(side, load(specifier))),
    call: (fn, self, ...args) => side.call(fn, self, ...args),
    step: (fn, self, state, command, on, observed) => side.step(fn, self, state, command, on, observed),
    set: (values) => {
      // A step per command of every trajectory: the few distinct mutation sets are made once each.
      if (!(values instanceof Set)) return realmSet(values);
      const seen = setsSeen.get(values);
      if (seen && seen.size === values.size) return seen.made;
      const made = realmSet(values);
      setsSeen.set(values, { size: values.size, made });
      return made;
    },
    lines: (values) => {
      const seen = linesSeen.get(values);
      if (seen && seen.length === values.length) return seen.made as string[];
      const made = side.frozenLines(JSON.stringify(Array.from(values, String)));
      linesSeen.set(values, { length: values.length, made });
      return made as string[];
    },
    random: (random) => side.random((n) => random.int(Number(n))),
    json: (value) => (value === undefined ? undefined : side.lines(JSON.stringify(value))),
  };
}

/** `{ value }` or `{ error }` as an object of the model's realm. */
function answerIn(side: RealmSide, answer: { value?: unknown; error?: string }): unknown {
  const box = side.box();
  if (answer.error !== undefined) box.error = String(answer.error);
  else box.value = answer.value;
  return box;
}
