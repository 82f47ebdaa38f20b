/**
 * The pairs matrix `validate` prints (src/cli/validateFormat.ts `formatPairs`): how many hidden transcripts tell
 * each two mistakes apart. A 0 is red and means a learner making one is told about both; a pair that was not
 * compared by whole transcripts (a mistake that only chooses at random) must not read as 0, or an instructor
 * is told two mistakes cannot be told apart when the check tells them apart command by command.
 */
import * as assert from 'node:assert/strict';
import { createColors } from 'picocolors';
import { formatPairs } from '../../src/cli/validateFormat';
import { parseTranscripts } from '../../src/core/model/transcript';
import { measureAdequacy } from '../../src/core/validation/adequacy';
import { toyModel } from './validationToys';

describe('validate: the pairs matrix', () => {
  it('a mistake that only chooses at random is "–" beside the others, explained under the matrix; a real 0 stays 0', () => {
    const model = toyModel({
      mutations: [{ id: 'any', description: 'ties at random', nondeterministic: true }, 'off', 'also-off'],
      answer: (command, on) =>
        command === 'PICK'
          ? on.has('any')
            ? { lines: ['a'], alternatives: [['b']] }
            : ['a']
          : [on.has('off') || on.has('also-off') ? '1' : '0'],
    });
    const hidden = parseTranscripts('=== picks: x\n> PICK\na\n=== gets: y\n> GET\n0\n', 't.txt');
    const mistakes = [
      { id: 'random-ties', mutants: ['any'] },
      { id: 'off-by-one', mutants: ['off'] },
      { id: 'one-too-many', mutants: ['also-off'] },
    ];
    const lines = formatPairs(measureAdequacy(model, mistakes, hidden), createColors(false));
    const row = (label: string): string[] =>
      lines
        .find((l) => l.trimStart().startsWith(label))!
        .trim()
        .split(/\s+/)
        .slice(2);
    assert.deepEqual(row('1 random-ties'), ['·', '–', '–']);
    assert.deepEqual(row('2 off-by-one'), ['–', '·', '0'], 'off and also-off answer every transcript alike');
    assert.match(
      lines[lines.length - 1]!,
      /– not compared by whole transcripts: a mistake that only chooses at random/,
    );
  });

  it('says nothing of "–" when every pair was compared', () => {
    const model = toyModel({
      mutations: ['off', 'other'],
      answer: (command, on) => [
        on.has('off') && command === 'GET' ? '1' : on.has('other') && command === 'PUT' ? '2' : '0',
      ],
    });
    const hidden = parseTranscripts('=== gets: y\n> GET\n0\n=== puts: z\n> PUT\n0\n', 't.txt');
    const lines = formatPairs(
      measureAdequacy(
        model,
        [
          { id: 'a', mutants: ['off'] },
          { id: 'b', mutants: ['other'] },
        ],
        hidden,
      ),
      createColors(false),
    );
    assert.ok(!lines.some((l) => l.includes('–')), lines.join('\n'));
    assert.deepEqual(
      lines
        .find((l) => l.trimStart().startsWith('1 a'))!
        .trim()
        .split(/\s+/)
        .slice(2),
      ['·', '2'],
    );
  });
});
