/**
 * Claims against evidence (src/core/diagnosis/evidence.ts): a finding is named only where the program's own
 * counts in its trace support it. The "programs" here are small least-connections balancers written out by
 * hand, each with one way of being wrong, run on a counterexample with STATUS after every command as the
 * confirm phase runs it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkClaim, statedCounts, unsupportedCounts, vetFindings } from '../../src/core/diagnosis/evidence';
import type { Finding } from '../../src/core/diagnosis/diagnose';
import { buildCounterexample, splitObserved, withObserve } from '../../src/core/check/counterexample';
import { parseManifest } from '../../src/core/pack/manifest';
import type { Counterexample } from '../../src/core/report/report';
import type { Outcome } from '../../src/core/model/simulate';
import { model } from '../../lessons/least-connections/model/model';

const LESSON = path.join(__dirname, '..', '..', 'lessons', 'least-connections');
const parsed = parseManifest(fs.readFileSync(path.join(LESSON, 'lesson.json'), 'utf8'), 'lesson.json');
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
const manifest = parsed.manifest;

interface Way {
  /** DONE adds one (the request is counted when it finishes). */
  readonly countOnDone?: boolean;
  /** DONE at 0 goes to -1. */
  readonly noFloor?: boolean;
  /** DONE at 0 wraps to 2^64 - 1. */
  readonly wrap64?: boolean;
  /** Ties go to the last of the tied. */
  readonly lastOnTie?: boolean;
}

/** A balancer as a learner might write it, one way wrong: its stdout lines for the commands. */
function balancer(way: Way, commands: readonly string[]): Outcome {
  let pool: string[] = [];
  let counts = new Map<string, bigint>();
  const lines: string[] = [];
  for (const command of commands) {
    const [verb, ...args] = command.split(' ');
    if (verb === 'POOL') {
      pool = args;
      counts = new Map(args.map((name) => [name, 0n]));
      lines.push('OK');
    } else if (verb === 'PICK') {
      if (pool.length === 0) {
        lines.push('EMPTY');
        continue;
      }
      let best = pool[0]!;
      for (const name of pool) {
        const [c, b] = [counts.get(name)!, counts.get(best)!];
        if (c < b || (way.lastOnTie && c === b)) best = name;
      }
      if (!way.countOnDone) counts.set(best, counts.get(best)! + 1n);
      lines.push(best);
    } else if (verb === 'DONE') {
      const name = args[0]!;
      const c = counts.get(name);
      if (c !== undefined) {
        if (way.countOnDone) counts.set(name, c + 1n);
        else if (c > 0n) counts.set(name, c - 1n);
        else if (way.noFloor) counts.set(name, -1n);
        else if (way.wrap64) counts.set(name, (1n << 64n) - 1n);
      }
      lines.push('OK');
    } else if (verb === 'STATUS') {
      for (const name of [...counts.keys()].sort()) lines.push(`${name}:${counts.get(name)}`);
    }
  }
  return { lines, ending: 'finished' };
}

/** The trace the check shows: the commands, the program's answers, and its own counts after each. */
function traceOf(way: Way, commands: readonly string[]): Counterexample {
  const plain = balancer(way, commands);
  const observed = splitObserved(model, commands, plain, balancer(way, withObserve(model, commands)));
  return buildCounterexample(
    model,
    { transcript: 't', label: 't', shrunkFrom: commands.length, reproduced: true },
    commands,
    plain,
    observed,
  );
}

function finding(mistake: string, mutation: string, mutations: readonly string[] = [mutation]): Finding {
  return {
    mistake,
    mutation,
    mutations,
    confidence: 'likely',
    nondeterministic: mutation === 'tiebreak-any',
    steps: [],
    stepCount: 1,
  };
}

function cardText(id: string, mutation: string): string {
  const spec = manifest.mistakes.find((m) => m.id === id)!;
  const variant = spec.variants?.find((v) => v.mutant === mutation);
  return [variant?.title ?? spec.title, variant?.explanation ?? spec.explanation, variant?.hint ?? spec.hint].join(' ');
}

const vet = (f: Finding, example: Counterexample, others: Finding[] = []) =>
  vetFindings({
    model,
    catalogue: manifest.mistakes,
    findings: [f, ...others],
    examples: [example, ...others.map(() => example)],
    cardText,
  })[0]!;

const IDLE_DONE = ['POOL a b', 'DONE b', 'PICK', 'PICK'];

describe('claims against evidence', () => {
  it('keeps a wrap-around card when the counts show the wrapped number', () => {
    const v = vet(finding('negative-count', 'wrap-64'), traceOf({ wrap64: true }, IDLE_DONE));
    assert.equal(v.kind, 'kept');
    assert.equal(v.finding.mutation, 'wrap-64');
  });

  it('turns a wrap-around card into a plain negative count when the counts show -1', () => {
    const example = traceOf({ noFloor: true }, ['POOL a b', 'DONE a', 'PICK', 'PICK']);
    assert.equal(checkClaim(model, ['wrap-64'], [], example).holds, false);
    const v = vet(finding('negative-count', 'wrap-64'), example);
    assert.equal(v.kind, 'kept');
    assert.equal(v.finding.mutation, 'negative-count');
  });

  it('names no wrap-around for a program that counts on DONE, and says what its counts show', () => {
    const example = traceOf({ countOnDone: true }, IDLE_DONE);
    const v = vet(finding('negative-count', 'wrap-64'), example);
    assert.equal(v.kind, 'dropped');
    assert.ok(v.kind === 'dropped' && v.shown.includes('b:1'), v.kind === 'dropped' ? v.shown : '');
  });

  it("names a tiebreak only where the chosen and the expected backend had equal counts by the program's own STATUS", () => {
    // Ties to the last: at the first PICK both are at 0 by the program's own counts.
    assert.equal(
      vet(finding('tiebreak', 'tiebreak-last'), traceOf({ lastOnTie: true }, ['POOL a b', 'PICK'])).kind,
      'kept',
    );
    // Counting on DONE: b is chosen because a is at 1 by the program's counts, not because of a tie.
    const example = traceOf({ countOnDone: true }, ['POOL a b', 'DONE a', 'PICK']);
    assert.equal(example.trace[2]!.actual?.[0], 'b');
    assert.equal(vet(finding('tiebreak', 'tiebreak-last'), example).kind, 'dropped');
    assert.equal(vet(finding('tiebreak', 'tiebreak-any'), example).kind, 'dropped');
  });

  it("holds a count claim against the counts, with the program's other named mistakes on", () => {
    const example = traceOf({ noFloor: true, lastOnTie: true }, ['POOL a b', 'PICK', 'DONE a', 'PICK']);
    const both = vetFindings({
      model,
      catalogue: manifest.mistakes,
      findings: [finding('negative-count', 'negative-count'), finding('tiebreak', 'tiebreak-last')],
      examples: [example, example],
      cardText,
    });
    assert.deepEqual(
      both.map((v) => v.kind),
      ['kept', 'kept'],
    );
  });

  it('keeps what it cannot check: a trace not reproduced on the real program', () => {
    const example = { ...traceOf({ countOnDone: true }, IDLE_DONE), reproduced: false };
    assert.equal(vet(finding('negative-count', 'wrap-64'), example).kind, 'kept');
  });

  it('reads the counts a card states: negative and wrapped numbers, not widths or examples', () => {
    assert.deepEqual(
      statedCounts('took its count from 0 to 18446744073709551615, as a 64-bit counter; -1 in a 32 bit one'),
      ['18446744073709551615', '-1'],
    );
    const example = traceOf({ noFloor: true }, ['POOL a b', 'DONE a', 'STATUS']);
    assert.deepEqual(unsupportedCounts(cardText('negative-count', 'negative-count'), example), []);
    assert.deepEqual(unsupportedCounts(cardText('negative-count', 'wrap-64'), example), ['18446744073709551615']);
  });
});
