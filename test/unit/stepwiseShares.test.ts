/**
 * The walk keeps each stream's share (stepwise.ts): a check walks its first batch again with the probe's runs
 * added, and a random program's verdict is settled over growing evidence. A walk that reuses shares must say
 * exactly what a walk from nothing says, for every candidate, in every order of streams and candidates, past
 * the bound on the steps it keeps.
 */
import * as assert from 'node:assert/strict';
import { walkEvidence, type Candidate, type EvidenceStream } from '../../src/core/diagnosis/stepwise';
import { simulate } from '../../src/core/model/simulate';
import type { ReferenceModel } from '../../src/core/model/model';
import { model, transcripts } from './fakeLesson';

/** The transcripts as one process answers them, one after the other, like a mutant program. */
function streamOf(lists: readonly (readonly string[])[], ...on: string[]): EvidenceStream {
  const commands: string[] = [];
  const segments: { list: number; start: number; length: number }[] = [];
  lists.forEach((list, i) => {
    segments.push({ list: i, start: commands.length, length: list.length + 1 });
    commands.push(`${model.resetCommand}${i % 2 === 0 ? ' a b c' : ' b a'}`, ...list.filter((c) => !/^POOL/.test(c)));
  });
  const { lines, ending } = simulate(model, commands, new Set(on)).outcome;
  return { commands, segments, lines, ending };
}

const candidate = (...mutations: string[]): Candidate => ({
  mutations,
  nondeterministic: mutations.includes('tiebreak-any'),
});

/** Another object for the same model: its walks start from nothing (shares are kept by the model). */
const fresh = (): ReferenceModel => ({ ...model });

describe('walking the evidence: shares kept per stream', () => {
  const lists = transcripts.map((t) => t.steps.map((s) => s.command));
  const long = Array.from({ length: 150 }, () => ['PICK', 'PICK', 'DONE a', 'PICK', 'STATUS']).flat();
  const streams = [
    streamOf(lists, 'tiebreak-last'),
    streamOf(lists, 'negative-count'),
    streamOf([long, long], 'tiebreak-last', 'negative-count'),
    streamOf(lists.slice(0, 3), 'unknown-added'),
  ];
  const singles = ['tiebreak-last', 'tiebreak-name', 'negative-count', 'unknown-added', 'tiebreak-any'].map((m) =>
    candidate(m),
  );
  const pairs = [candidate('tiebreak-last', 'negative-count'), candidate('tiebreak-name', 'unknown-added')];

  it('says what a walk from nothing says when the streams and candidates grow', () => {
    const reused = fresh();
    walkEvidence(reused, streams.slice(0, 2), singles);
    walkEvidence(reused, streams.slice(0, 3), [...singles, ...pairs]);
    const again = walkEvidence(reused, streams, [...pairs, ...singles]);
    assert.deepEqual(again, walkEvidence(fresh(), streams, [...pairs, ...singles]));
    // The long stream is past the bound on kept steps: what is kept is still the first, in stream order.
    assert.ok(again.differingCount > 400 && again.differing.length === 400, `${again.differingCount}`);
  });

  it('adds up the streams: counts summed, the first contradiction the earliest stream’s, exact only if exact in each', () => {
    const cands = [...singles, ...pairs];
    const whole = walkEvidence(fresh(), streams, cands);
    const each = streams.map((stream) => walkEvidence(fresh(), [stream], cands));
    cands.forEach((_, c) => {
      const tally = whole.tallies[c]!;
      const parts = each.map((walk) => walk.tallies[c]!);
      assert.equal(
        tally.supportCount,
        parts.reduce((n, t) => n + t.supportCount, 0),
      );
      assert.equal(
        tally.against,
        parts.reduce((n, t) => n + t.against, 0),
      );
      assert.equal(
        tally.exact,
        parts.every((t) => t.exact),
      );
      const first = parts.findIndex((t) => t.firstAgainst !== null);
      assert.deepEqual(tally.firstAgainst, first < 0 ? null : { ...parts[first]!.firstAgainst!, stream: first });
    });
    assert.equal(
      whole.differingCount,
      each.reduce((n, walk) => n + walk.differingCount, 0),
    );
  });

  it('keeps a stream apart by its place: the same stream later in the list names its own place', () => {
    const reused = fresh();
    walkEvidence(reused, [streams[0]!, streams[1]!], singles);
    const swapped = walkEvidence(reused, [streams[1]!, streams[0]!], singles);
    assert.deepEqual(swapped, walkEvidence(fresh(), [streams[1]!, streams[0]!], singles));
    assert.equal(swapped.differing[0]!.stream, 0);
  });
});
