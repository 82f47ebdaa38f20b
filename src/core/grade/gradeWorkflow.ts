/**
 * The workflow `classroom grade-workflow` writes for the TEACHER's own repository: the grade of record, on
 * the students' code, for a class too big for one machine. A matrix of N jobs, each cloning its shard of the
 * roster (`classroom clone --shard i/N`) and grading it (`grade --shard i/N --run-id <the run's id>`), then
 * one job that merges the N shard reports (`grade --merge`), which takes only reports of that same run and
 * grader. Nothing a student's repository ran is read: the code is cloned and checked here. Pure: text out.
 */
import {
  checkLessonId,
  installScript,
  PACK_HOME,
  quoted,
  runBlock,
  SANDBOX_STEP,
  type Install,
} from './classroomWorkflow';

export interface GradeWorkflowOptions {
  readonly lesson: string;
  readonly shards: number;
  readonly install: Install;
  readonly nodeVersion: string;
  /** The roster's path in the teacher's repository (see roster.ts for its lines). */
  readonly roster: string;
  /** The repository secret holding a token that can read the students' repositories. */
  readonly tokenSecret: string;
}

export const MAX_SHARDS = 256;
/** A repository path or a secret's name that YAML and the shell both take as it is. */
export const PLAIN_PATH = /^[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$/;
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** The steps both jobs start with: the teacher's checkout, Node, the pack beside it, lesson-companion. */
function setupSteps(options: GradeWorkflowOptions): string {
  return `      - name: Checkout the roster and the lesson
        uses: actions/checkout@v4
      - name: Set up Node
        uses: actions/setup-node@v4
        with:
          node-version: ${quoted(options.nodeVersion)}
      - name: Copy the lesson beside the checkout
        run: |
          cp -R ${PACK_HOME} "$RUNNER_TEMP/lesson-companion"
      - name: Install Lesson Companion
        run: |
${runBlock(installScript(options.install))}`;
}

export function gradeWorkflow(options: GradeWorkflowOptions): string {
  checkLessonId(options.lesson);
  const n = options.shards;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SHARDS) throw new Error(`not a shard count: ${n}`);
  if (!PLAIN_PATH.test(options.roster) || options.roster.split('/').includes('..'))
    throw new Error(`not a plain roster path: ${options.roster}`);
  if (!SECRET_NAME.test(options.tokenSecret)) throw new Error(`not a secret name: ${options.tokenSecret}`);
  const lesson = `"$RUNNER_TEMP/lesson-companion/${options.lesson}"`;
  const shard = `\${{ matrix.shard }}/${n}`;
  return `# Written by \`lesson-companion classroom grade-workflow --lesson ${options.lesson} --shards ${n}\`.
# The grade of record, on the code: ${n} jobs each clone their shard of ${options.roster} and grade it with
# \`lesson-companion grade --shard i/${n}\`; one job merges the shard reports of this run into the class report.
# The ${options.tokenSecret} secret is a token that can read the students' repositories.
name: Grade ${options.lesson}
'on':
  workflow_dispatch:
permissions:
  contents: read
jobs:
  grade-shard:
    name: Grade shard ${shard}
    runs-on: ubuntu-latest
    timeout-minutes: 120
    strategy:
      fail-fast: false
      matrix:
        shard: [${Array.from({ length: n }, (_, i) => i + 1).join(', ')}]
    steps:
${SANDBOX_STEP}
${setupSteps(options)}
      - name: Clone this shard's repositories
        env:
          LESSON_COMPANION_GIT_TOKEN: \${{ secrets.${options.tokenSecret} }}
        run: |
          lesson-companion classroom clone --roster ${options.roster} --shard ${shard} --into "$RUNNER_TEMP/submissions"
      - name: Grade this shard
        run: |
          lesson-companion grade "$RUNNER_TEMP/submissions" --lesson ${lesson} --shard ${shard} --run-id "\${{ github.run_id }}" --out "$RUNNER_TEMP/shard" --format json
      - name: Upload this shard's report
        uses: actions/upload-artifact@v4
        with:
          name: shard-\${{ matrix.shard }}
          path: \${{ runner.temp }}/shard/class-report.json
          if-no-files-found: error
  merge:
    name: Merge the shards
    needs: grade-shard
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
${setupSteps(options)}
      - name: Download the shard reports
        uses: actions/download-artifact@v4
        with:
          pattern: shard-*
          path: \${{ runner.temp }}/shards
      - name: Merge the shard reports of this run
        run: |
          lesson-companion grade --merge "$RUNNER_TEMP"/shards/shard-*/class-report.json --run-id "\${{ github.run_id }}" --lesson ${lesson} --out class-report
      - name: Upload the class report
        uses: actions/upload-artifact@v4
        with:
          name: class-report
          path: class-report
`;
}
