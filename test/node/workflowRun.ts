/**
 * A GitHub Actions workflow as the tests read and run it: through GitHub's own parser
 * (@actions/workflow-parser), and its job's shell steps run by bash in order, as the runner runs them.
 *
 * The parser is an ES module that imports JSON without import attributes, so it is loaded in a child Node
 * with tsx's loader. WORKFLOW_PARSER_DIR may point at an installed copy when node_modules has none yet.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { npmEnv } from './publishedPackage';

const ROOT = path.join(__dirname, '..', '..');

export interface Step {
  readonly id: string;
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: { map: { Key: string; Value: { expr?: string } }[] };
}
export interface Parsed {
  readonly errors: string[];
  readonly template: {
    jobs: { id: string; steps: Step[]; needs?: string[]; strategy?: { map: { Key: string; Value: unknown }[] } }[];
    events: Record<string, unknown>;
  };
}

/** The workflow through @actions/workflow-parser: its errors, and the template it converts to. */
export function parseWithGitHubsParser(file: string): Parsed {
  const script = `
    import * as fs from 'node:fs';
    const where = process.env.WORKFLOW_PARSER_DIR ? process.env.WORKFLOW_PARSER_DIR + '/dist/index.js' : '@actions/workflow-parser';
    const { parseWorkflow, convertWorkflowTemplate } = await import(where);
    const errors = [];
    const trace = { info() {}, verbose() {}, error(m) { errors.push(String(m)); } };
    const parsed = parseWorkflow({ name: ${JSON.stringify(path.basename(file))}, content: fs.readFileSync(${JSON.stringify(file)}, 'utf8') }, trace);
    errors.push(...parsed.context.errors.getErrors().map((e) => e.message));
    const template = await convertWorkflowTemplate(parsed.context, parsed.value);
    process.stdout.write(JSON.stringify({ errors, template }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out) as Parsed;
}

export interface JobRun {
  readonly output: string;
  readonly summary: string;
  /** npm's global prefix of the job: where its install step put lesson-companion. */
  readonly prefix: string;
}

/**
 * A job's shell steps, run by bash in `repo` in order as the runner runs them (`set -e`, RUNNER_TEMP its own,
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY set), with npm's global prefix and cache empty folders of the job's;
 * all but the sandbox's install, whose apt-get and sysctl need root (bubblewrap is on this machine already).
 */
export function runJobSteps(steps: readonly Step[], repo: string, repository: string): JobRun {
  const runnerTemp = `${repo}.runner-temp`;
  const prefix = `${repo}.prefix`;
  const output = `${repo}.output`;
  const summary = `${repo}.summary`;
  fs.mkdirSync(runnerTemp);
  fs.writeFileSync(output, '');
  fs.writeFileSync(summary, '');
  const env = npmEnv(runnerTemp, {
    PATH: `${path.join(prefix, 'bin')}:${process.env.PATH}`,
    npm_config_prefix: prefix,
    HOME: runnerTemp,
    LESSON_COMPANION_PACKS: path.join(runnerTemp, 'no-packs'),
    RUNNER_TEMP: runnerTemp,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_REPOSITORY: repository,
    GITHUB_SHA: 'abc123',
    CI: 'true',
  });
  for (const step of steps.filter((s) => s.run && s.name !== 'Install the sandbox'))
    execFileSync('bash', ['-e', '-c', step.run!], {
      cwd: repo,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  return { output: fs.readFileSync(output, 'utf8'), summary: fs.readFileSync(summary, 'utf8'), prefix };
}
