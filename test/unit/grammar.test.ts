/**
 * A model's command grammar: what fits it, and that generated and shrunk transcripts stay inside it. The
 * property test runs the shrinker over every built-in pack's generated transcripts with many predicates and
 * checks every candidate it ever asks about, not only its result.
 */
import * as assert from 'node:assert/strict';
import { generatedCases } from '../../src/core/check/cases';
import { shrinkCommands, type BatchPredicate } from '../../src/core/check/shrink';
import { commandFits, grammarProblem, grammarShapeProblem } from '../../src/core/model/grammar';
import type { CommandGrammar, ReferenceModel } from '../../src/core/model/model';
import { seededRandom } from '../../src/core/model/random';
import { simulate } from '../../src/core/model/simulate';
import { model as connCounts } from '../../lessons/conn-counts/model/model';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import { model as leastConnections } from '../../lessons/least-connections/model/model';

const LIMITER: CommandGrammar = { LIMIT: ['number', 'number'], TICK: [], TAKE: [], STATUS: [] };
const BUILT_IN = [leastConnections, connCounts, healthChecks] as unknown as ReferenceModel[];

/** A batch predicate that records every candidate it was asked about. */
function recording(holds: (commands: readonly string[]) => boolean): BatchPredicate & { seen: string[] } {
  const seen: string[] = [];
  const predicate = async (candidates: readonly (readonly string[])[]): Promise<boolean[]> => {
    for (const c of candidates) seen.push(...c);
    return candidates.map(holds);
  };
  return Object.assign(predicate, { seen });
}

describe('command grammar', () => {
  it('says which commands fit, and why one does not', () => {
    assert.equal(grammarProblem(LIMITER, 'LIMIT 1 5'), undefined);
    assert.equal(grammarProblem(LIMITER, '  TAKE '), undefined);
    assert.equal(grammarProblem(LIMITER, 'LIMIT 1'), '`LIMIT 1` does not fit `LIMIT <number> <number>`');
    assert.match(grammarProblem(LIMITER, 'LIMIT a 5')!, /does not fit/);
    assert.match(grammarProblem(LIMITER, 'LIMIT -1 5')!, /does not fit/, 'a whole number has digits only');
    assert.match(grammarProblem(LIMITER, 'TAKE 2')!, /does not fit `TAKE`/);
    assert.equal(
      grammarProblem(LIMITER, 'FLY'),
      '`FLY` is not a command of the protocol (its commands: LIMIT, TICK, TAKE, STATUS)',
    );
    const pool: CommandGrammar = { POOL: ['names'], CAP: ['name', 'names'] };
    for (const fits of ['POOL', 'POOL a', 'POOL a b c', 'CAP x', 'CAP x y z'])
      assert.equal(grammarProblem(pool, fits), undefined, fits);
    assert.match(grammarProblem(pool, 'CAP')!, /does not fit `CAP <name> <name>…`/);
    assert.equal(commandFits({})('anything at all'), true, 'without a grammar every command fits');
  });

  it('refuses a malformed grammar', () => {
    assert.equal(grammarShapeProblem(LIMITER), undefined);
    assert.match(grammarShapeProblem([])!, /must be an object/);
    assert.match(grammarShapeProblem({ POOL: ['list'] })!, /argument kinds/);
    assert.match(grammarShapeProblem({ POOL: ['names', 'name'] })!, /only be the last/);
  });

  it('the shrinker keeps a command whole where the grammar needs its arguments (and drops them without one)', async () => {
    const commands = ['LIMIT 1 5', 'TICK', 'TAKE', 'TAKE', 'STATUS'];
    const holds = (c: readonly string[]): boolean => c.some((x) => x.startsWith('LIMIT')) && c.includes('STATUS');
    const within = await shrinkCommands(commands, recording(holds), 60, commandFits({ grammar: LIMITER }));
    assert.deepEqual(within, ['LIMIT 1 5', 'STATUS']);
    const without = await shrinkCommands(commands, recording(holds));
    assert.equal(without[0]!.split(' ').length, 2, `today's behaviour drops an argument: ${without.join(' / ')}`);
  });

  for (const model of BUILT_IN) {
    it(`${model.id}: declares a grammar that its generated transcripts keep`, () => {
      assert.ok(model.grammar, 'a built-in model declares its grammar');
      const fits = commandFits(model);
      for (const c of generatedCases(model, 7, 60, 24))
        for (const command of c.commands) assert.ok(fits(command), command);
    });

    it(`${model.id}: property: the shrinker never emits a command outside the grammar`, async () => {
      const fits = commandFits(model);
      const random = seededRandom(2026);
      for (let trial = 0; trial < 60; trial++) {
        const commands = model.generate(random, 4 + random.int(20));
        // A predicate that holds for the whole transcript: some answer line of it, chosen at random, still appears.
        const lines = simulate(model, commands).outcome.lines;
        if (lines.length === 0) continue;
        const wanted = lines[random.int(lines.length)]!;
        const predicate = recording((c) => c.length > 0 && simulate(model, c).outcome.lines.includes(wanted));
        const shrunk = await shrinkCommands(commands, predicate, 60, fits);
        for (const command of [...predicate.seen, ...shrunk])
          assert.ok(fits(command), `trial ${trial}: \`${command}\` from ${commands.join(' / ')}`);
      }
    });
  }

  it('generated transcripts leave out commands a model makes outside its own grammar', () => {
    const sloppy = {
      ...leastConnections,
      grammar: { POOL: ['names'], PICK: [], STATUS: [] },
      generate: () => ['POOL a b', 'PICK', 'DONE a', 'STATUS'],
    } as unknown as ReferenceModel;
    assert.deepEqual(generatedCases(sloppy, 1, 1, 4)[0]!.commands, ['POOL a b', 'PICK', 'STATUS']);
  });
});
