/**
 * Shared by the repair operator tests: the search's first round of single edits for the named mistakes, applied,
 * over trees from the real parser (tree-sitter's WebAssembly build; no process is started).
 */
import * as assert from 'node:assert/strict';
import type { Language } from '../../src/core/pack/schema';
import { singleEdits, type RepairTarget } from '../../src/core/repair/plan';
import { applyEdits } from '../../src/core/repair/tree';
import { parsesCleanly, parseSource } from '../../src/node/repair/parser';

/** The first `count` single edits (the search's first round is 16), each applied to the source. */
export async function firstEdits(
  language: Language,
  source: string,
  targets: readonly RepairTarget[],
  count = 16,
): Promise<{ source: string; description: string }[]> {
  const parsed = await parseSource(language, source);
  assert.ok(parsed, 'the source parses');
  return singleEdits(parsed, targets)
    .slice(0, count)
    .map((c) => ({ source: applyEdits(source, c.edits)!, description: c.description }));
}

/** The fixed source is among the first round's edits, and parses. */
export async function assertProposed(
  language: Language,
  source: string,
  targets: readonly RepairTarget[],
  fixed: string,
  count = 16,
): Promise<void> {
  assert.notEqual(fixed, source, 'the fix changes the snippet');
  const edits = await firstEdits(language, source, targets, count);
  assert.ok(
    edits.some((e) => e.source === fixed),
    `expected among the first ${count}:\n${fixed}\ngot:\n${edits.map((e) => `${e.description}\n${e.source}`).join('\n----\n')}`,
  );
  assert.ok(await parsesCleanly(language, fixed), 'the fix parses');
}
