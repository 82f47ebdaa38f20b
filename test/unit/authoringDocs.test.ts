/**
 * docs/authoring.md is where an instructor learns lesson.json: every field the schema knows (src/core/pack/schema.ts
 * and the template scenarios', together the authoring schema media/lesson.schema.json is generated from) must be
 * named there, in backticks or as a key of a JSON example.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LessonManifestSchema } from '../../src/core/pack/schema';
import { lessonJsonSchema } from '../../src/worlds/templates/lessonJson';

const root = path.resolve(__dirname, '..', '..');

/** Every property name anywhere in a JSON schema: objects' `properties`, through unions, arrays and records. */
function fieldNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) fieldNames(item, into);
  else if (schema && typeof schema === 'object') {
    const properties = (schema as { properties?: Record<string, unknown> }).properties;
    if (properties) for (const name of Object.keys(properties)) into.add(name);
    for (const value of Object.values(schema)) fieldNames(value, into);
  }
  return into;
}

describe('docs/authoring.md names every lesson.json field', () => {
  const docs = fs.readFileSync(path.join(root, 'docs/authoring.md'), 'utf8');
  const named = (field: string): boolean => docs.includes(`\`${field}\``) || docs.includes(`"${field}":`);

  it('every field of the schema, at any depth (scenarios, questions, answer hashes, starters…)', () => {
    const fields = [...fieldNames([LessonManifestSchema, lessonJsonSchema()])];
    assert.ok(fields.length > 50, `the walk finds the schema's fields (${fields.length})`);
    assert.deepEqual(
      fields.filter((f) => !named(f)),
      [],
      'fields of lesson.json that docs/authoring.md does not name',
    );
  });
});
