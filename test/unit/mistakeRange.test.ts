/**
 * Where a mistake's squiggle goes (src/ext/editor/diagnostics.ts `mistakeRange`): over the whole leading block
 * of its traced lines, from the first line's first character to the last line's end. The `vscode` module
 * cannot be had outside an extension host, so this test puts a stand-in for the three things mistakeRange
 * touches (Range, Position, a TextDocument's lines, no symbol provider) in its place; the integration suite sees real squiggles.
 */
import * as assert from 'node:assert/strict';
import Module from 'node:module';
import type { CheckReport } from '../../src/core/report/report';

class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
  translate(lines: number, characters: number): Position {
    return new Position(this.line + lines, this.character + characters);
  }
}
class Range {
  readonly start: Position;
  readonly end: Position;
  /** As vscode's: two positions, or a start line and character and an end line and character. */
  constructor(...args: [Position, Position] | [number, number, number, number]) {
    const [a, b, c, d] = args;
    [this.start, this.end] =
      typeof a === 'number' ? [new Position(a, b as number), new Position(c!, d!)] : [a, b as Position];
  }
}
class Diagnostic {
  source?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number,
  ) {}
}
const vscodeStandIn = {
  Position,
  Range,
  Diagnostic,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2 },
  // No symbol provider outside a host: the function is found by its definition in the text.
  commands: { executeCommand: () => Promise.resolve(undefined) },
};

/** Loads diagnostics.ts with the stand-in answering `require('vscode')`. */
function loadDiagnostics(): typeof import('../../src/ext/editor/diagnostics') {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = (request, ...rest) => (request === 'vscode' ? vscodeStandIn : original(request, ...rest));
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('../../src/ext/editor/diagnostics') as typeof import('../../src/ext/editor/diagnostics');
  } finally {
    loader._load = original;
  }
}

function documentOf(text: string): import('vscode').TextDocument {
  const lines = text.split('\n');
  return {
    getText: () => text,
    lineCount: lines.length,
    lineAt: (line: number) => {
      const content = lines[line]!;
      return {
        text: content,
        range: new Range(new Position(line, 0), new Position(line, content.length)),
        firstNonWhitespaceCharacterIndex: content.length - content.trimStart().length,
      };
    },
  } as unknown as import('vscode').TextDocument;
}

const SOURCE = [
  'def pick(pool):',
  '    best = None',
  '    for name in pool:',
  '        if best is None or pool[name] <= pool[best]:',
  '            best = name',
  '    return best',
  '',
].join('\n');

describe('mistakeRange and buildDiagnostics: the squiggle of a located mistake', () => {
  const { mistakeRange } = loadDiagnostics();
  const mistake = (lines: number[]): CheckReport['mistakes'][number] =>
    ({ id: 'tiebreak', function: 'pick', location: { lines } }) as unknown as CheckReport['mistakes'][number];

  it("covers every line of the leading block, from the first one's code to the last one's end", async () => {
    const range = await mistakeRange(documentOf(SOURCE), mistake([4, 5, 3]), 'python');
    assert.deepEqual(
      { start: [range.start.line, range.start.character], end: [range.end.line, range.end.character] },
      { start: [2, 4], end: [4, SOURCE.split('\n')[4]!.length] },
    );
  });

  it('stops at a gap: lines further apart than a blank line and a comment get no squiggle of theirs', async () => {
    const range = await mistakeRange(documentOf(SOURCE), mistake([2, 6]), 'python');
    assert.deepEqual([range.start.line, range.end.line], [1, 1]);
    // One line between (a branch not taken): one squiggle over both.
    const joined = await mistakeRange(documentOf(SOURCE), mistake([4, 6]), 'python');
    assert.deepEqual([joined.start.line, joined.end.line], [3, 5]);
  });

  it('gives an exact mistake an error, a likely one a warning (Problems sorts and filters by it)', async () => {
    const { buildDiagnostics } = loadDiagnostics();
    const named = (id: string, confidence: string): CheckReport['mistakes'][number] =>
      ({
        id,
        title: `Mistake ${id}`,
        hint: 'Look at the tiebreak.',
        confidence,
        function: 'pick',
        location: { function: 'pick', lines: [4], reason: 'this line ran only where the program went wrong' },
      }) as unknown as CheckReport['mistakes'][number];
    const report = { mistakes: [named('exact-one', 'exact'), named('likely-one', 'likely')], problems: [] };
    const built = await buildDiagnostics(documentOf(SOURCE), report as unknown as CheckReport, 'python');
    assert.deepEqual(
      built.map((b) => [b.mistakeId, b.diagnostic.severity]),
      [
        ['exact-one', vscodeStandIn.DiagnosticSeverity.Error],
        ['likely-one', vscodeStandIn.DiagnosticSeverity.Warning],
      ],
    );
  });

  describe("within the pack's hints.maxRung (the card's rungs)", () => {
    const located = {
      id: 'tiebreak',
      title: 'Ties are not broken by pool order',
      hint: 'Which tied backend wins?',
      confidence: 'exact',
      function: 'pick',
      line: 1,
      location: {
        function: 'pick',
        lines: [4],
        reason: 'this line ran at command 2 (PICK) only where the program went wrong',
      },
    } as unknown as CheckReport['mistakes'][number];
    const built = async (maxRung: number | undefined) => {
      const { buildDiagnostics } = loadDiagnostics();
      const report = { mistakes: [located], problems: [] } as unknown as CheckReport;
      const [only] = await buildDiagnostics(documentOf(SOURCE), report, 'python', undefined, maxRung);
      const { range, message } = only!.diagnostic;
      return { at: [range.start.line, range.start.character, range.end.line, range.end.character], message };
    };

    it('at rung 1 underlines only the function name, and the hover says the lesson keeps the lines', async () => {
      const { at, message } = await built(1);
      // `def pick(pool):`: the name, not line 4.
      assert.deepEqual(at, [0, 4, 0, 8]);
      assert.match(message, /Only the name pick is underlined: this lesson keeps the lines to itself for now/);
      assert.doesNotMatch(message, /[Ll]ine 4|command 2/);
    });

    it('at rung 2 keeps the lines, without the reason that points into a smallest transcript', async () => {
      const { at, message } = await built(2);
      assert.deepEqual(at.slice(0, 3), [3, 8, 3]);
      assert.match(message, /\(Line 4 of pick\(\)\.\)$/);
      assert.doesNotMatch(message, /command 2/);
    });

    it('from rung 3, and with no cap, the lines and their reason', async () => {
      for (const cap of [undefined, 3, 4]) {
        const { at, message } = await built(cap);
        assert.deepEqual(at.slice(0, 3), [3, 8, 3], `cap ${cap}`);
        assert.match(message, /Line 4 of pick\(\): .*command 2 \(PICK\)/, `cap ${cap}`);
      }
    });
  });
});
