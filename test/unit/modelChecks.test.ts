/**
 * validate's checks of a pack's model, on the built-in models: here, a reset that keeps state behind, which
 * makes a transcript depend on the one before it in the check's shared process.
 */
import * as assert from 'node:assert/strict';
import { checkModel } from '../../src/core/validation/modelChecks';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import type { Transcript } from '../../src/core/model/transcript';

function transcript(name: string, commands: string[]): Transcript {
  return { name, label: name, steps: commands.map((command) => ({ command, expected: [] })) } as unknown as Transcript;
}

const dependencyProblems = (transcripts: Transcript[]): string[] =>
  checkModel({ model: healthChecks, transcripts, seed: 1, file: 'model/model.ts', clock: () => 0 })
    .filter((p) => p.message.includes('in one process'))
    .map((p) => p.message);

describe('validate: a model whose reset keeps state', () => {
  it('says which transcript a right program would fail after which (the cap survives POOL, and the next one relies on no cap)', () => {
    const problems = dependencyProblems([
      transcript('capped', ['CAP 1', 'POOL a b', 'PICK']),
      transcript('uncapped', ['POOL a b', 'PICK', 'PICK', 'PICK']),
    ]);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(
      problems[0]!,
      /hidden transcript "uncapped" is answered otherwise when it runs after hidden transcript "capped" in one process: the reset command "POOL" keeps something/,
    );
  });

  it("is quiet when every transcript sets the cap itself, as the lesson's do", () => {
    assert.deepEqual(
      dependencyProblems([
        transcript('capped', ['CAP 1', 'POOL a b', 'PICK']),
        transcript('uncapped', ['CAP 0', 'POOL a b', 'PICK', 'PICK', 'PICK']),
      ]),
      [],
    );
  });
});
