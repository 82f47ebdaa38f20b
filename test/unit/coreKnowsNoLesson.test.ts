/**
 * The engine knows no lesson: every protocol lives in its pack's model. This reads every file of
 * src/core (comments included) for the built-in lessons' ids, command words and mistake ids.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseManifest } from '../../src/core/pack/manifest';
import { parseTranscripts } from '../../src/core/model/transcript';

const ROOT = path.join(__dirname, '..', '..');
const LESSONS = path.join(ROOT, 'lessons');

function words(): { lessonIds: string[]; commandWords: string[]; mistakeIds: string[] } {
  const lessonIds: string[] = [];
  const commandWords = new Set<string>();
  const mistakeIds = new Set<string>();
  for (const id of fs.readdirSync(LESSONS)) {
    const file = path.join(LESSONS, id, 'lesson.json');
    if (!fs.existsSync(file)) continue;
    const parsed = parseManifest(fs.readFileSync(file, 'utf8'), file);
    assert.ok(parsed.ok, file);
    lessonIds.push(parsed.manifest.id);
    for (const m of parsed.manifest.mistakes) mistakeIds.add(m.id);
    for (const t of parsed.manifest.transcripts) {
      for (const transcript of parseTranscripts(fs.readFileSync(path.join(LESSONS, id, t), 'utf8'), t)) {
        for (const step of transcript.steps) commandWords.add(step.command.split(/\s+/)[0]!);
      }
    }
  }
  return { lessonIds, commandWords: [...commandWords], mistakeIds: [...mistakeIds] };
}

function coreFiles(dir = path.join(ROOT, 'src', 'core')): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? coreFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

describe('src/core holds no lesson-specific code', () => {
  const { lessonIds, commandWords, mistakeIds } = words();

  it('reads the built-in lessons (the test would pass vacuously otherwise)', () => {
    assert.ok(lessonIds.includes('least-connections') && lessonIds.includes('conn-counts'), lessonIds.join(', '));
    assert.ok(commandWords.includes('PICK') && commandWords.includes('ACTIVE'), commandWords.join(', '));
  });

  for (const file of coreFiles()) {
    it(path.relative(ROOT, file), () => {
      const text = fs.readFileSync(file, 'utf8');
      const found: string[] = [];
      for (const id of [...lessonIds, ...mistakeIds])
        if (new RegExp(`(?<![\\w-])${id}(?![\\w-])`, 'i').test(text)) found.push(id);
      for (const word of commandWords) if (new RegExp(`\\b${word}\\b`).test(text)) found.push(word);
      assert.deepEqual(found, [], `${path.relative(ROOT, file)} names ${found.join(', ')}`);
    });
  }
});

/**
 * Issue 22: core drives ticks and draws series for any protocol, so it names no kind of system either: no
 * "round robin", "server", "queue" or "balancer" (any case, comments included). The template scenarios of lesson.json
 * (the balancer format with `servers` and `commands`) are read and run in src/worlds/templates, above core.
 */
describe('src/core names no kind of system (round robin, server, queue, balancer)', () => {
  it('reads every file of core (the test would pass vacuously otherwise)', () => {
    assert.ok(coreFiles().length > 50, `${coreFiles().length} files`);
  });

  for (const file of coreFiles()) {
    it(path.relative(ROOT, file), () => {
      const found = fs.readFileSync(file, 'utf8').match(/round.?robin|server|queue|balancer/gi) ?? [];
      assert.deepEqual(
        [...new Set(found.map((w) => w.toLowerCase()))],
        [],
        `${path.relative(ROOT, file)} names ${found.join(', ')}`,
      );
    });
  }
});
