/**
 * The workflow `classroom init` writes into an assignment's template repository, run on every push of every
 * student's copy. Pure: text in, text out; src/cli/classroomCommand.ts checks the values and writes the files.
 *
 * What it installs is pinned: lesson-companion at one exact version, and the sha512 of its tarball (npm's
 * `integrity`), checked before anything is installed, so a package of that name with other bytes never runs
 * in a student's CI. The tarball comes from the registry, or from the template repository itself (vendored),
 * when a class needs no registry at all. The lesson pack travels in the template repository too, under
 * PACK_HOME, and the workflow moves it out of the checkout before the check, so the student's program never
 * has the hidden transcripts in its folder.
 *
 * Classroom records points only for a workflow named "Autograding Tests" whose one job is
 * run-autograding-tests (see classroom.ts for what the grading reporter reads).
 */
import { ARTIFACT_NAME, REPORT_FILE, RUNNER_ID } from './classroom';

/** Where the template repository keeps the lesson pack (and a vendored tarball), relative to its root. */
export const PACK_HOME = '.github/lesson-companion';
export const PACKAGE_NAME = 'lesson-companion';

export type Install =
  /** lesson-companion@version from the registry (npm's own, or `registry`), checked against `integrity`. */
  | { readonly kind: 'registry'; readonly version: string; readonly integrity: string; readonly registry?: string }
  /** The tarball in the template repository (PACK_HOME/tarballName), checked against `integrity`. */
  | { readonly kind: 'vendored'; readonly version: string; readonly integrity: string }
  /** The teacher's own install command, as given (one plain line): nothing is pinned. */
  | { readonly kind: 'command'; readonly command: string };

export interface WorkflowOptions {
  readonly lesson: string;
  /** Points for each hidden transcript passed. */
  readonly points: number;
  readonly install: Install;
  readonly nodeVersion: string;
}

/** The file name npm gives a tarball of this package at `version`. */
export const tarballName = (version: string): string => `${PACKAGE_NAME}-${version}.tgz`;

/**
 * Why a value cannot go into the workflow as one line, or undefined when it can: a line break (or a character
 * YAML 1.1 reads as one), another control character, or a length past 300 would let it add keys or steps.
 */
export function plainLineProblem(value: string): string | undefined {
  if (value.trim() === '') return 'it is empty';
  if (value.length > 300) return `it is ${value.length} characters long (at most 300)`;
  const bad = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.exec(value);
  if (bad) {
    const code = bad[0].codePointAt(0)!;
    const what = code === 10 || code === 13 ? 'a line break' : 'a control character';
    return `it holds ${what} (U+${code.toString(16).toUpperCase().padStart(4, '0')}), and the workflow takes one plain line`;
  }
  return undefined;
}

/** What npm calls an exact version (no range), and a sha512 integrity: the only forms the workflow takes. */
export const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
export const SHA512_INTEGRITY = /^sha512-[A-Za-z0-9+/]{86}==$/;
/** A registry URL with nothing a shell or YAML would read specially. */
export const PLAIN_URL = /^https?:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:\/[A-Za-z0-9._~%/+-]*)?$/;

/** A lesson id, as the pack schema allows it: safe in a path and a shell word. */
const LESSON_ID = /^[a-z0-9][a-z0-9-]*$/;

/** A YAML double-quoted scalar (JSON's string syntax is YAML's). */
export const quoted = (text: string): string => JSON.stringify(text);

/**
 * The install step's script: fetch or find the tarball (in "$RUNNER_TEMP/lesson-companion", where the step
 * before put the repository's PACK_HOME), check its sha512, install it.
 */
export function installScript(install: Install): string[] {
  if (install.kind === 'command')
    return ['# The install command given to `classroom init --install`:', install.command];
  if (!EXACT_VERSION.test(install.version) || !SHA512_INTEGRITY.test(install.integrity))
    throw new Error(`not an exact version and sha512 integrity: ${install.version} ${install.integrity}`);
  const registry = install.kind === 'registry' ? install.registry : undefined;
  if (registry !== undefined && !PLAIN_URL.test(registry)) throw new Error(`not a plain registry URL: ${registry}`);
  const tarball = `"$RUNNER_TEMP/lesson-companion/${tarballName(install.version)}"`;
  const fetch =
    install.kind === 'registry'
      ? [
          `npm pack ${PACKAGE_NAME}@${install.version}${registry ? ` --registry ${registry}` : ''} --pack-destination "$RUNNER_TEMP/lesson-companion" >/dev/null`,
        ]
      : [`# The tarball is in the template repository (${PACK_HOME}): no registry is needed.`];
  return [
    `# ${PACKAGE_NAME} ${install.version}, pinned by the sha512 of its tarball: other bytes are never installed.`,
    ...fetch,
    `actual="sha512-$(openssl dgst -sha512 -binary ${tarball} | base64 -w0)"`,
    `if [ "$actual" != "${install.integrity}" ]; then`,
    `  echo "::error::${tarballName(install.version)} is not the ${PACKAGE_NAME} ${install.version} this workflow pins (its sha512 is $actual)"`,
    '  exit 1',
    'fi',
    `npm install --global --no-audit --no-fund${install.kind === 'vendored' ? ' --offline' : ''} ${tarball}`,
  ];
}

/** Lines of a step's `run: |` block, indented under it. */
export const runBlock = (lines: readonly string[]): string => lines.map((line) => `          ${line}`).join('\n');

/** bubblewrap for the sandbox, on GitHub's Ubuntu runners. */
export const SANDBOX_STEP = `      - name: Install the sandbox
        run: |
          sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap
          # Ubuntu 24.04 keeps unprivileged user namespaces (which the sandbox needs) behind AppArmor.
          sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true`;

export function checkLessonId(lesson: string): void {
  if (!LESSON_ID.test(lesson)) throw new Error(`not a lesson id: ${lesson}`);
}

export function classroomWorkflow(options: WorkflowOptions): string {
  checkLessonId(options.lesson);
  const install = runBlock(installScript(options.install));
  return `# Written by \`lesson-companion classroom init --lesson ${options.lesson}\`.
# GitHub Classroom records points only for a workflow named "Autograding Tests" whose one job is
# run-autograding-tests. Each hidden transcript of the lesson is one test worth ${options.points} point(s).
# The points are feedback for the student; the grade of record is \`lesson-companion grade\` on the code.
name: Autograding Tests
'on':
  push:
  workflow_dispatch:
  # Classroom starts a run this way when it grades again.
  repository_dispatch:
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    timeout-minutes: 15
    steps:
      - name: Checkout code
        uses: actions/checkout@v4
      - name: Set up Node
        uses: actions/setup-node@v4
        with:
          node-version: ${quoted(options.nodeVersion)}
${SANDBOX_STEP}
      - name: Take the lesson out of the student's folder
        run: |
          # The pack (with its hidden transcripts) is kept beside the checkout, not in the folder the check shows.
          mv ${PACK_HOME} "$RUNNER_TEMP/lesson-companion"
      - name: Install Lesson Companion
        run: |
${install}
      - name: Check against the hidden transcripts
        id: ${RUNNER_ID}
        run: |
          lesson-companion classroom run --lesson "$RUNNER_TEMP/lesson-companion/${options.lesson}" --points ${options.points} --sandbox=require
      - name: Autograding Reporter
        if: always()
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          ${RUNNER_ID.toUpperCase()}_RESULTS: "\${{ steps.${RUNNER_ID}.outputs.result }}"
        with:
          runners: ${RUNNER_ID}
      - name: Upload the check report
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: ${ARTIFACT_NAME}
          path: ${REPORT_FILE}
          if-no-files-found: warn
`;
}
