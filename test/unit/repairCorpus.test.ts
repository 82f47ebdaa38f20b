/**
 * Every repair operator at every node of every program of the real-style corpus (test/fixtures/real-style), with
 * model answers (so the answer guards run too): none throws, and every proposal applies to the file. An operator that threw was caught only by the bench (`check --repair` on go_pool.py: a
 * Python `x: int` is an assignment with no right side).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Language } from '../../src/core/pack/schema';
import { context } from '../../src/core/repair/proposal';
import { applyEdits, walkWithParent } from '../../src/core/repair/tree';
import { parseSource } from '../../src/node/repair/parser';
import * as operators from '../../src/core/repair/operators';
import type { Proposal } from '../../src/core/repair/operators';

const CORPUS = path.join(__dirname, '..', 'fixtures', 'real-style');
const LANGUAGES: Record<string, Language> = { '.py': 'python', '.js': 'javascript', '.ts': 'typescript' };

function programs(): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (LANGUAGES[path.extname(entry.name)]) out.push(full);
    }
  };
  visit(CORPUS);
  return out;
}

describe('repair operators over the whole real-style corpus', function () {
  this.timeout(120_000);

  it('throw nowhere, and every proposal applies', async () => {
    const files = programs();
    assert.ok(files.length > 100, `${files.length} programs`);
    for (const file of files) {
      const source = fs.readFileSync(file, 'utf8');
      const parsed = await parseSource(LANGUAGES[path.extname(file)]!, source);
      if (!parsed) continue;
      const ctx = context(parsed, ['EMPTY', 'ERROR ValueError']);
      for (const { node, parent } of walkWithParent(parsed.root))
        for (const operator of operators.NODE_OPERATORS) {
          const where = `${operator.name} on ${path.relative(CORPUS, file)}`;
          let proposals: Proposal[] = [];
          assert.doesNotThrow(() => (proposals = operator(node, ctx, parent)), where);
          for (const p of proposals) assert.ok(applyEdits(source, p.edits) !== undefined, `${where}: ${p.description}`);
        }
    }
  });
});
