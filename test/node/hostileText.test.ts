/**
 * One escape for every string from a pack on every terminal surface (issue 19, item 5): a lesson whose
 * title, summary, scenario and question hold OSC 52, `ESC[2J`, a C1 CSI and an OSC title change
 * (test/fixtures/hostile/packs/terminal-escapes) reaches `lessons`, `validate`, `answer --list` and `simulate`
 * with none of them raw; `validate` warns at each field.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { assertWords, fakeIo, ROOT } from './hostileKit';

const OSC52 = '\u001b]52;c;cm0gLXJmIH4=\u0007';
const CLEAR = '\u001b[2J';
const C1_CSI = '\u009b2J';
const TITLE = '\u001b]0;pwned\u0007';

describe('pack text reaches no terminal raw (terminal-escapes)', function () {
  this.timeout(60_000);
  let tmp: string;
  let pack: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-escapes-'));
    pack = path.join(tmp, 'packs', 'least-connections');
    fs.cpSync(path.join(ROOT, 'lessons', 'least-connections'), pack, { recursive: true });
    const file = path.join(pack, 'lesson.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, any>;
    manifest.title += OSC52;
    manifest.summary = `${CLEAR}${manifest.summary}`;
    manifest.scenarios[0].title += C1_CSI;
    manifest.scenarios[0].description = `${TITLE}${manifest.scenarios[0].description}`;
    manifest.failureQuestions[0].prompt += CLEAR;
    fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const run = async (args: string[]): Promise<{ code: number; text: string }> => {
    const io = fakeIo(tmp, { LESSON_COMPANION_PACKS: path.join(tmp, 'packs'), LESSON_COMPANION_SANDBOX: 'off' });
    const code = await main(args, io);
    return { code, text: io.stdout + io.stderr };
  };

  it('lessons: the title is shown escaped', async () => {
    const { text } = await run(['lessons']);
    assertWords(text, /\\u001b\]52;c;/);
  });

  it('answer --list: the question is shown escaped', async () => {
    const { text } = await run(['answer', '--lesson', pack, '--list']);
    assertWords(text, /\\u001b\[2J/);
  });

  it('validate: a warning at each field, and the output escaped', async () => {
    const { text } = await run(['validate', pack]);
    assertWords(text, /holds the control character U\+001B/);
    for (const field of [
      /title/,
      /summary/,
      /scenarios.0.title/,
      /scenarios.0.description/,
      /failureQuestions.0.prompt/,
    ]) {
      assert.match(
        text,
        new RegExp(`${field.source}[^\\n]*holds the control character`),
        `a warning at ${field.source}`,
      );
    }
  });

  it('simulate: the scenario title and description are shown escaped', async () => {
    const learner = path.join(tmp, 'balancer.py');
    fs.copyFileSync(path.join(pack, 'starter', 'python', 'balancer.py'), learner);
    const { text } = await run(['simulate', learner, '--lesson', pack, '--scenario', 'slow-server']);
    assertWords(text, /\\u009b2J|\\u001b\]0;pwned/);
  });
});
