/**
 * A model's declared pool size (ReferenceModel.poolSize): the built-in lessons generate pools up to 8 backends,
 * most of them small, and validate warns when generate() does not keep to the range it declares.
 */
import * as assert from 'node:assert/strict';
import { model as leastConnections } from '../../lessons/least-connections/model/model';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import { model as connCounts } from '../../lessons/conn-counts/model/model';
import { listSize, poolSizeShapeProblem } from '../../src/core/model/grammar';
import type { ReferenceModel } from '../../src/core/model/model';
import { checkGrammar } from '../../src/core/validation/grammarChecks';
import { generatedCases } from '../../src/core/check/cases';

const LESSONS: readonly [string, ReferenceModel][] = [
  ['least-connections', leastConnections as ReferenceModel],
  ['health-checks', healthChecks as ReferenceModel],
  ['conn-counts', connCounts as ReferenceModel],
];

/** The size of every list of names in the check's generated transcripts at `seed` (40 of up to 16 commands). */
function poolSizes(model: ReferenceModel, seed: number): number[] {
  return generatedCases(model, seed, 40, 16).flatMap((c) =>
    c.commands.flatMap((x) => listSize(model.grammar!, x) ?? []),
  );
}

describe('pool sizes of generated transcripts', () => {
  for (const [id, model] of LESSONS) {
    it(`${id}: declares 0 to 8 backends; every check's batch has pools of 5 and more, most of them 4 or fewer`, () => {
      assert.deepEqual(model.poolSize, { min: 0, max: 8 });
      for (const seed of [1, 2, 3, 4, 5, 7, 13]) {
        const sizes = poolSizes(model, seed);
        const large = sizes.filter((n) => n > 4).length;
        assert.ok(large >= 2, `seed ${seed}: ${large} pools of more than 4 among ${sizes.length}`);
        assert.ok(large < sizes.length / 2, `seed ${seed}: ${large} of ${sizes.length} pools are large`);
        assert.ok(Math.max(...sizes) <= 8);
      }
      const all = [1, 2, 3, 4, 5].flatMap((seed) => poolSizes(model, seed));
      assert.ok(all.includes(8), `the most backends in 200 transcripts: ${Math.max(...all)}`);
    });
  }
});

describe('validate: generate() against the declared pool size', () => {
  const run = (model: ReferenceModel) =>
    checkGrammar({
      model,
      transcripts: [],
      manifest: { failureQuestions: [], quiz: [] },
      manifestFile: 'lesson.json',
      modelFile: 'model/model.ts',
      seed: 3,
    });
  const poolOf = (size: number) => () => [`POOL ${['a', 'b', 'c', 'd', 'e', 'f'].slice(0, size).join(' ')}`.trimEnd()];

  it('is quiet for the built-in lessons', () => {
    for (const [id, model] of LESSONS) assert.deepEqual(run(model), [], id);
  });

  it('warns when a generated pool is larger than the range, or the range is never reached', () => {
    const larger = run({ ...leastConnections, poolSize: { min: 0, max: 4 }, generate: poolOf(5) } as ReferenceModel);
    assert.deepEqual(
      larger.map((p) => [p.severity, p.area, p.file, p.message]),
      [
        [
          'warning',
          'model',
          'model/model.ts',
          "generate() made a list of 5 names, outside the model's poolSize (0 to 4)",
        ],
      ],
    );
    const short = run({ ...leastConnections, poolSize: { min: 0, max: 8 }, generate: poolOf(4) } as ReferenceModel);
    assert.deepEqual(
      short.map((p) => p.message),
      ['generate() never made a list of 8 names (poolSize.max) in 100 transcripts: the most was 4'],
    );
    const smaller = run({ ...leastConnections, poolSize: { min: 2, max: 4 }, generate: poolOf(1) } as ReferenceModel);
    assert.match(smaller[0]!.message, /a list of 1 names, outside the model's poolSize \(2 to 4\)/);
  });

  it('warns when no generated command holds a list, and when there is no grammar to find one', () => {
    const none = run({ ...leastConnections, generate: () => ['PICK'] } as ReferenceModel);
    assert.deepEqual(
      none.map((p) => p.message),
      ['the model declares `poolSize`, but generate() made no command with a list of names'],
    );
    const ungrammatical = run({ ...leastConnections, grammar: undefined } as ReferenceModel);
    assert.match(ungrammatical[0]!.message, /declares `poolSize` but no `grammar`/);
    assert.deepEqual(run({ ...leastConnections, grammar: undefined, poolSize: undefined } as ReferenceModel), []);
  });
});

describe('a model file declaring its pool size', () => {
  it('takes whole numbers from 0 with min at most max, up to 64', () => {
    assert.equal(poolSizeShapeProblem({ min: 0, max: 8 }), undefined);
    assert.equal(poolSizeShapeProblem({ min: 3, max: 3 }), undefined);
    for (const bad of [null, 8, { min: 0 }, { min: -1, max: 4 }, { min: 0, max: 2.5 }, { min: '0', max: 4 }])
      assert.match(poolSizeShapeProblem(bad)!, /must be \{ min, max \}/, JSON.stringify(bad));
    assert.equal(poolSizeShapeProblem({ min: 5, max: 4 }), '`poolSize`: min (5) is more than max (4)');
    assert.equal(poolSizeShapeProblem({ min: 0, max: 65 }), '`poolSize`: max (65) is more than 64');
  });

  it('counts the names of a list argument after the fixed ones', () => {
    const grammar = { POOL: ['names'], SET: ['number', 'names'], PICK: [] } as const;
    assert.equal(listSize(grammar, 'POOL a b c'), 3);
    assert.equal(listSize(grammar, 'POOL'), 0);
    assert.equal(listSize(grammar, 'SET 2 a b'), 2);
    assert.equal(listSize(grammar, 'PICK'), undefined);
    assert.equal(listSize(grammar, 'JUMP a'), undefined);
  });
});
