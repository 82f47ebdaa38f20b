/**
 * The teacher's side, pure: the roster `classroom clone` reads (core `roster`) and the workflow
 * `classroom grade-workflow` writes (core `gradeWorkflow`): a matrix of N jobs, each cloning and grading its
 * shard with this run's id, then a merge of that run's shard reports. GitHub's parser reads the written file,
 * and real git clones a roster's shards, in test/node/gradeWorkflow.test.ts.
 */
import * as assert from 'node:assert/strict';
import { gradeWorkflow, type GradeWorkflowOptions } from '../../src/core/grade/gradeWorkflow';
import { parseRoster } from '../../src/core/grade/roster';

const INTEGRITY = `sha512-${'B'.repeat(86)}==`;
const options: GradeWorkflowOptions = {
  lesson: 'least-connections',
  shards: 3,
  install: { kind: 'vendored', version: '1.2.3', integrity: INTEGRITY },
  nodeVersion: '20',
  roster: 'roster.txt',
  tokenSecret: 'CLASSROOM_TOKEN',
};

describe('classroom: roster', () => {
  it('reads <student> <repository> lines and owner/name alone, skipping blanks and comments', () => {
    const parsed = parseRoster(
      '# class of 2026\n\nalice org/lc-alice\norg/lc-bob\r\ncarol https://git.example.org/c/lc.git\ndan file:///srv/dan.git\n',
    );
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.entries.map((e) => [e.student, e.url, e.github, e.line]),
      [
        ['alice', 'https://github.com/org/lc-alice.git', true, 3],
        ['lc-bob', 'https://github.com/org/lc-bob.git', true, 4],
        ['carol', 'https://git.example.org/c/lc.git', false, 5],
        ['dan', 'file:///srv/dan.git', false, 6],
      ],
    );
  });

  it('refuses, by line, a name that is no plain folder, a repository that is no git URL, and a student twice', () => {
    const parsed = parseRoster(
      '../eve org/x\n.hidden org/y\nfrank ext::sh -c evil\ngina --upload-pack=evil\nhal org/h\nHAL org/h2\n',
    );
    assert.ok(!parsed.ok);
    assert.deepEqual(
      parsed.problems.map((p) => p.split(':')[0]),
      ['line 1', 'line 2', 'line 3', 'line 4', 'line 6'],
    );
    assert.match(parsed.problems[0]!, /"\.\.\/eve" is not a student name/);
    assert.match(parsed.problems[2]!, /has 4 fields/);
    assert.match(parsed.problems[3]!, /"--upload-pack=evil" is neither owner\/name on GitHub nor a git URL/);
    assert.match(parsed.problems[4]!, /HAL is already on line 5/);
    assert.deepEqual(parseRoster('# nobody\n'), { ok: false, problems: ['the roster names no student'] });
  });
});

describe('classroom: grade workflow', () => {
  const text = gradeWorkflow(options);
  const shardJob = text.slice(text.indexOf('\n  grade-shard:\n'), text.indexOf('\n  merge:\n'));

  it('is started by hand, reads only contents, and has one job per shard in a matrix', () => {
    assert.match(text, /^'on':\n {2}workflow_dispatch:\n/m);
    assert.match(text, /^permissions:\n {2}contents: read\n/m);
    assert.match(shardJob, /\n {6}fail-fast: false\n {6}matrix:\n {8}shard: \[1, 2, 3\]\n/);
  });

  it('each job clones its shard of the roster with the token secret, and grades that shard with the run id', () => {
    const shard = shardJob;
    assert.match(
      shard,
      /LESSON_COMPANION_GIT_TOKEN: \$\{\{ secrets\.CLASSROOM_TOKEN \}\}\n {8}run: \|\n {10}lesson-companion classroom clone --roster roster\.txt --shard \$\{\{ matrix\.shard \}\}\/3 --into "\$RUNNER_TEMP\/submissions"\n/,
    );
    assert.ok(
      shard.includes(
        'lesson-companion grade "$RUNNER_TEMP/submissions" --lesson "$RUNNER_TEMP/lesson-companion/least-connections" --shard ${{ matrix.shard }}/3 --run-id "${{ github.run_id }}" --out "$RUNNER_TEMP/shard" --format json',
      ),
      shard,
    );
    assert.ok(shard.indexOf('Install the sandbox') < shard.indexOf('Grade this shard'));
    assert.match(
      shard,
      /name: shard-\$\{\{ matrix\.shard \}\}\n {10}path: \$\{\{ runner\.temp \}\}\/shard\/class-report\.json/,
    );
  });

  it('then one job, after every shard, merges the shard reports of this same run', () => {
    const merge = text.slice(text.indexOf('\n  merge:\n'));
    assert.match(merge, /\n {4}needs: grade-shard\n/);
    assert.match(merge, /pattern: shard-\*\n {10}path: \$\{\{ runner\.temp \}\}\/shards\n/);
    assert.ok(
      merge.includes(
        'lesson-companion grade --merge "$RUNNER_TEMP"/shards/shard-*/class-report.json --run-id "${{ github.run_id }}" --lesson "$RUNNER_TEMP/lesson-companion/least-connections" --out class-report',
      ),
      merge,
    );
  });

  it('both jobs install the pinned lesson-companion, checked by its sha512', () => {
    assert.equal(text.split(`if [ "$actual" != "${INTEGRITY}" ]; then`).length - 1, 2);
    assert.equal(text.split('cp -R .github/lesson-companion "$RUNNER_TEMP/lesson-companion"').length - 1, 2);
  });

  it('refuses a shard count, roster path or secret name that is not plain', () => {
    for (const bad of [
      { shards: 0 },
      { shards: 1.5 },
      { shards: 257 },
      { roster: '../x' },
      { roster: 'a b' },
      { tokenSecret: 'X }}' },
    ])
      assert.throws(() => gradeWorkflow({ ...options, ...bad }), /not a/);
  });
});
