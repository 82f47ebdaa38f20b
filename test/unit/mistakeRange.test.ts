/**
 * Where a mistake's squiggle goes (src/ext/editor/diagnostics.ts `mistakeRange`): over the whole leading block
 * of its traced lines, from the first line's first character to the last line's end. The `vscode` module
 * cannot be had outside an extension host, so this test puts a stand-in for the three things mistakeRange
 * touches (Range, Position, a TextDocument's lines) in its place; the integration suite sees real squiggles.
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
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}
class Diagnostic {
  source?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number,
  ) {}
}
const vscodeStandIn = { Position, Range, Diagnostic, DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2 } };

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

  it('stops at a gap: lines apart from the most suspicious one get no squiggle of theirs', async () => {
    const range = await mistakeRange(documentOf(SOURCE), mistake([4, 6]), 'python');
    assert.deepEqual([range.start.line, range.end.line], [3, 3]);
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
});
