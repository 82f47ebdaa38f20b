// The first-run walkthrough in package.json: five steps in the order a learner meets them, each completed by
// the event itself (a context key the extension sets from the learner's own progress), never by a click on
// the walkthrough, and each with its page in media/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    walkthroughs: { id: string; steps: { id: string; completionEvents?: string[]; media: { markdown?: string } }[] }[];
  };
};
const keysSource = fs.readFileSync(path.join(ROOT, 'src', 'ext', 'workbench', 'contextKeys.ts'), 'utf8');

describe('first-run walkthrough', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;

  it('walks start, read, check, card, answer', () => {
    assert.deepEqual(
      walkthrough!.steps.map((s) => s.id),
      ['start', 'read', 'check', 'card', 'answer'],
    );
  });

  it('completes each step on a context key the extension sets, and shows a page that exists', () => {
    for (const step of walkthrough!.steps) {
      const events = step.completionEvents ?? [];
      assert.ok(events.length > 0, `${step.id} has a completion event`);
      for (const event of events) {
        const key = /^onContext:(lessonCompanion\.\w+)$/.exec(event)?.[1];
        assert.ok(key, `${step.id} completes on a context key, not a click: ${event}`);
        assert.ok(keysSource.includes(`'${key}'`), `${key} is set in src/ext/workbench/contextKeys.ts`);
      }
      assert.ok(
        step.media.markdown && fs.existsSync(path.join(ROOT, step.media.markdown)),
        `${step.id}: ${step.media.markdown}`,
      );
    }
  });
});
