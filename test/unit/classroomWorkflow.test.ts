/**
 * The workflow `classroom init` writes, pure (core `classroomWorkflow`): its shape for Classroom, the pinned
 * install (exact version, sha512 checked before anything is installed), the vendored install (no registry),
 * and the refusal of any value that is not one plain line. GitHub's own parser reads the written file, and
 * bash runs its steps, in test/node/classroom.test.ts.
 */
import * as assert from 'node:assert/strict';
import { ARTIFACT_NAME, REPORT_FILE, RUNNER_ID } from '../../src/core/grade/classroom';
import {
  classroomWorkflow,
  PACK_HOME,
  plainLineProblem,
  type WorkflowOptions,
} from '../../src/core/grade/classroomWorkflow';

const INTEGRITY = `sha512-${'A'.repeat(86)}==`;
const options: WorkflowOptions = {
  lesson: 'least-connections',
  points: 2,
  install: { kind: 'registry', version: '1.2.3', integrity: INTEGRITY },
  nodeVersion: '20',
};
/** The lines of a step's `run: |` block, unindented. */
function script(text: string, stepName: string): string[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l === `      - name: ${stepName}`);
  assert.ok(at >= 0, `a step named ${stepName}`);
  const end = lines.findIndex((l, i) => i > at && l.startsWith('      - name: '));
  return lines
    .slice(at + 2, end)
    .filter((l) => l.startsWith('          '))
    .map((l) => l.slice(10));
}

describe('classroom: workflow', () => {
  const text = classroomWorkflow(options);

  it('is named and shaped as Classroom records points from', () => {
    assert.match(text, /^name: Autograding Tests$/m);
    assert.match(text, /^ {2}run-autograding-tests:$/m);
    assert.match(text, /^ {2}push:$/m);
    assert.match(text, /^ {2}repository_dispatch:$/m);
    assert.match(text, /points are feedback for the student; the grade of record is `lesson-companion grade`/);
  });

  it('moves the pack out of the checkout, then checks against that copy in the sandbox', () => {
    assert.deepEqual(script(text, "Take the lesson out of the student's folder").slice(-1), [
      `mv ${PACK_HOME} "$RUNNER_TEMP/lesson-companion"`,
    ]);
    assert.match(
      text,
      new RegExp(
        `id: ${RUNNER_ID}\\n +run: \\|\\n +lesson-companion classroom run --lesson "\\$RUNNER_TEMP/lesson-companion/least-connections" --points 2 --sandbox=require`,
      ),
    );
    assert.match(
      text,
      new RegExp(`${RUNNER_ID.toUpperCase()}_RESULTS: "\\$\\{\\{ steps\\.${RUNNER_ID}\\.outputs\\.result \\}\\}"`),
    );
    assert.match(text, new RegExp(`runners: ${RUNNER_ID}$`, 'm'));
    assert.match(text, /node-version: "20"/);
    assert.match(text, new RegExp(`name: ${ARTIFACT_NAME}\\n +path: ${REPORT_FILE.replace(/\./g, '\\.')}`));
  });

  it('fetches the exact version, and installs it only when its sha512 is the pinned one', () => {
    const lines = script(text, 'Install Lesson Companion');
    const tarball = '"$RUNNER_TEMP/lesson-companion/lesson-companion-1.2.3.tgz"';
    assert.ok(
      lines.includes('npm pack lesson-companion@1.2.3 --pack-destination "$RUNNER_TEMP/lesson-companion" >/dev/null'),
    );
    const check = lines.findIndex((l) => l === `if [ "$actual" != "${INTEGRITY}" ]; then`);
    const install = lines.indexOf(`npm install --global --no-audit --no-fund ${tarball}`);
    assert.ok(check > 0 && install > check, lines.join('\n'));
    assert.equal(lines[check - 1], `actual="sha512-$(openssl dgst -sha512 -binary ${tarball} | base64 -w0)"`);
    assert.match(lines[check + 2]!, /^ {2}exit 1$/);
    const withRegistry = classroomWorkflow({
      ...options,
      install: { ...options.install, registry: 'http://127.0.0.1:4873/' } as WorkflowOptions['install'],
    });
    assert.match(withRegistry, /npm pack lesson-companion@1\.2\.3 --registry http:\/\/127\.0\.0\.1:4873\/ --pack/);
  });

  it('vendored: installs the tarball from the repository, offline, never asking a registry', () => {
    const vendored = classroomWorkflow({
      ...options,
      install: { kind: 'vendored', version: '1.2.3', integrity: INTEGRITY },
    });
    const lines = script(vendored, 'Install Lesson Companion');
    assert.ok(!lines.some((l) => l.startsWith('npm pack')), lines.join('\n'));
    assert.ok(
      lines.includes(
        'npm install --global --no-audit --no-fund --offline "$RUNNER_TEMP/lesson-companion/lesson-companion-1.2.3.tgz"',
      ),
    );
    assert.ok(lines.includes(`if [ "$actual" != "${INTEGRITY}" ]; then`));
  });

  it("the teacher's own install command goes in as given, one line", () => {
    const own = classroomWorkflow({ ...options, install: { kind: 'command', command: 'npm i -g lesson-companion@1' } });
    assert.deepEqual(script(own, 'Install Lesson Companion').slice(-1), ['npm i -g lesson-companion@1']);
  });

  it('refuses a version that is a range, an integrity that is not sha512, a registry or a lesson id a shell reads', () => {
    const bad: WorkflowOptions['install'][] = [
      { kind: 'registry', version: '^1.2.3', integrity: INTEGRITY },
      { kind: 'registry', version: '1.2.3', integrity: 'sha1-abc' },
      { kind: 'registry', version: '1.2.3', integrity: INTEGRITY, registry: 'https://x.org/$(id)' },
      { kind: 'vendored', version: '1.2.3\n', integrity: INTEGRITY },
    ];
    for (const install of bad) assert.throws(() => classroomWorkflow({ ...options, install }), /not/);
    assert.throws(() => classroomWorkflow({ ...options, lesson: 'x"; id; "' }), /not a lesson id/);
  });
});

describe('classroom: one plain line', () => {
  it('takes a command with quotes, pipes and dollars (the teacher writes shell)', () => {
    assert.equal(plainLineProblem('npm i -g "lesson-companion@1.2.3" | tee log && echo $HOME'), undefined);
    assert.equal(plainLineProblem('20.x'), undefined);
  });

  it('refuses a line break, which would add YAML of its own, and every other control or separator character', () => {
    assert.match(plainLineProblem('npm i x\n  evil: 1')!, /a line break \(U\+000A\)/);
    assert.match(plainLineProblem('npm i x\r')!, /a line break \(U\+000D\)/);
    for (const c of ['\u0000', '\t', '\u001b', '\u0085', '\u2028', '\u2029', '\ufeff'])
      assert.match(plainLineProblem(`npm i x${c}y`)!, /control character/, JSON.stringify(c));
  });

  it('refuses an empty value and one too long to be a command', () => {
    assert.match(plainLineProblem('  ')!, /empty/);
    assert.match(plainLineProblem('x'.repeat(301))!, /301 characters long/);
    assert.equal(plainLineProblem('x'.repeat(300)), undefined);
  });
});
