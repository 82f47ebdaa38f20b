/**
 * What `classroom init` and `classroom grade-workflow` share: the values that go into a workflow as they are
 * (one plain line each), and what the workflow installs (pinned by version and sha512, or the teacher's own
 * command), with the lesson pack copied into the repository beside it.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import {
  PACK_HOME,
  PACKAGE_NAME,
  PLAIN_URL,
  plainLineProblem,
  tarballName,
  type Install,
} from '../core/grade/classroomWorkflow';
import { npmPack, ownVersion } from '../node/classroom/templateRepository';
import { UsageError, type CliIO } from './command';

export const exists = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** A value that goes into the workflow as it is: refused unless it is one plain line. */
export function plainLine(flag: string, value: string | undefined): string | undefined {
  const problem = value === undefined ? undefined : plainLineProblem(value);
  if (problem) throw new UsageError(`--${flag} is refused: ${problem}. Give it as one line of plain text.`);
  return value;
}

export interface InstallChoice {
  readonly install?: string;
  readonly tarball?: string;
  readonly vendor?: boolean;
  readonly registry?: string;
}

/**
 * What the workflow installs: the teacher's own command (nothing pinned), else lesson-companion at an exact
 * version with the sha512 npm gives for its tarball: this CLI's own version from the registry, or the tarball
 * given with --tarball; --vendor writes that tarball into the template repository for the workflow to use.
 */
export async function chooseInstall(choice: InstallChoice, repo: string, io: CliIO): Promise<Install> {
  if (choice.install !== undefined) {
    if (choice.tarball || choice.vendor || choice.registry)
      throw new UsageError(
        '--install replaces the pinned install: give it alone, without --tarball, --vendor or --registry',
      );
    return { kind: 'command', command: choice.install };
  }
  if (choice.registry !== undefined && !PLAIN_URL.test(choice.registry))
    throw new UsageError(`--registry takes an http(s) URL of plain characters, not "${choice.registry}"`);
  const version = await ownVersion(io.bundleDir);
  if (!choice.tarball && !version)
    throw new UsageError(
      'cannot tell which version of lesson-companion this is (no package.json of it beside its dist/ folder): give the tarball to install with --tarball <file>, or your own --install "<command>"',
    );
  const spec = choice.tarball ? path.resolve(io.cwd, choice.tarball) : `${PACKAGE_NAME}@${version}`;
  const registry = choice.registry ? { registry: choice.registry } : {};
  if (!choice.vendor) {
    const { version: pinned, integrity } = await npmPack(spec, { ...registry, cwd: io.cwd });
    return { kind: 'registry', version: pinned, integrity, ...registry };
  }
  const destination = path.join(repo, PACK_HOME);
  await fs.mkdir(destination, { recursive: true });
  const packed = await npmPack(spec, { ...registry, destination, cwd: io.cwd });
  if (packed.file !== path.join(destination, tarballName(packed.version)))
    throw new UsageError(`npm wrote ${packed.file ?? 'no tarball'}, not ${tarballName(packed.version)}`);
  return { kind: 'vendored', version: packed.version, integrity: packed.integrity };
}

export const describeInstall = (install: Install): string =>
  install.kind === 'command'
    ? `installs with your command (nothing pinned): ${install.command}`
    : `installs ${PACKAGE_NAME} ${install.version} (${install.integrity}) ${install.kind === 'vendored' ? `from ${PACK_HOME}/${tarballName(install.version)}, with no registry` : `from ${install.registry ?? "npm's registry"}, checked against that sha512`}`;
