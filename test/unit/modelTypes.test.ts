/**
 * The model types a pack imports as `lesson-companion/model` are the engine's own: media/model.d.ts is exactly
 * what TypeScript's declaration emit makes of src/core/model/model.ts, the package exports it, and the
 * built-in lessons' models import it rather than a path into this repository's sources.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '..', '..');

describe('the shipped model types', function () {
  this.timeout(60000);

  it('media/model.d.ts and media/worlds/queues.d.ts are what tsc emits for their sources', async () => {
    await promisify(execFile)(process.execPath, [path.join(root, 'scripts/write-model-types.mjs'), '--check'], {
      cwd: root,
    }).catch((error: { stderr?: string }) => {
      assert.fail(error.stderr ?? String(error));
    });
  });

  it('the package exports them as lesson-companion/model, and the built-in models import them from there', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      typesVersions: Record<string, Record<string, string[]>>;
    };
    assert.deepEqual(pkg.exports['./model'], { types: './media/model.d.ts' });
    assert.deepEqual(pkg.typesVersions['*']!['model'], ['media/model.d.ts']);
    // The lesson packs (a course folder, lessons/load-balancing, holds only course.json).
    const packs = fs
      .readdirSync(path.join(root, 'lessons'))
      .filter((id) => fs.existsSync(path.join(root, 'lessons', id, 'lesson.json')));
    assert.ok(packs.length >= 3, packs.join(', '));
    for (const id of packs) {
      const source = fs.readFileSync(path.join(root, 'lessons', id, 'model', 'model.ts'), 'utf8');
      assert.match(source, /^import type \{[^}]*\bReferenceModel\b[^}]*\} from 'lesson-companion\/model';$/m, id);
      assert.doesNotMatch(source, /src\/core/, id);
    }
  });
});
