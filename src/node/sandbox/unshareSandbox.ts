/**
 * The sandbox built with util-linux `unshare` where bubblewrap is not installed but user namespaces are
 * allowed. The same view as bubblewrap's (sandboxView.ts), built by a shell script that runs as root of a
 * new user namespace: it mounts a fresh root (a tmpfs, over /sys of its own mount namespace), binds the
 * system and the learner's folder read-only into it, a new /proc for the new PID namespace, a private /tmp;
 * then it enters a second user namespace as
 * `nobody`, chrooted into that root. Entering the second namespace locks the mounts (a less privileged
 * namespace cannot undo mounts it inherits), and its program starts without capabilities, so it cannot
 * unmount the empty folder over the pack or make the read-only folders writable.
 *
 * Unlike bubblewrap, `unshare` does not die with its parent: a CLI killed with SIGKILL leaves the
 * sandbox running until the program ends (SIGINT and SIGTERM are handled: cleanup.ts). And the program is
 * the first process of its PID namespace (bubblewrap puts an init of its own there): it has no parent to
 * reach, and when it ends, the kernel ends everything else in the namespace.
 */
import * as fs from 'node:fs';
import {
  DEVICES,
  ETC_FILES,
  SANDBOX_UID,
  SANDBOX_WORK_DIR,
  WORK_DIR_BYTES,
  extraBinds,
  hiddenInside,
  topLevelSystem,
  type SandboxView,
} from './sandboxView';
import { ownWord } from './ownerMark';

/** POSIX shell quoting of one word. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Where the new root is mounted, inside the namespace only: /sys exists on every Linux, no learner file or
 * interpreter lives under it, and the sandbox shows none of it. So no folder of ours is needed on the host.
 */
const ROOT_MOUNT_POINT = '/sys';

/** Shell lines that bind `source` read-only at the same path under the new root ($R). */
function bindReadOnly(source: string, at = source): string[] {
  const target = `"$R"${quote(at)}`;
  const isDir = fs.statSync(source, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const make = isDir ? `mkdir -p ${target}` : `mkdir -p "$(dirname ${target})" && : > ${target}`;
  return [make, `mount --rbind ${quote(source)} ${target}`, `mount -o remount,bind,ro ${target}`];
}

/** The script run as root of the outer user namespace; $1.. are the program and its arguments. */
function setupScript(view: SandboxView, root: string): string {
  const system = topLevelSystem();
  const binds = extraBinds(view.readOnly);
  const lines = [
    'set -e',
    `R=${quote(root)}`,
    'mount -t tmpfs -o size=1m,mode=755 tmpfs "$R"',
    ...bindReadOnly('/usr'),
    ...system.links.map(([target, at]) => `ln -s ${quote(target)} "$R"${quote(at)}`),
    ...system.folders.flatMap((dir) => bindReadOnly(dir)),
    ...ETC_FILES.filter((file) => fs.existsSync(file)).flatMap((file) => bindReadOnly(file)),
    'mkdir -p "$R/proc" && mount -t proc proc "$R/proc"',
    'mkdir -p "$R/dev" && ln -s /proc/self/fd "$R/dev/fd" && ln -s /proc/self/fd/0 "$R/dev/stdin"',
    'ln -s /proc/self/fd/1 "$R/dev/stdout" && ln -s /proc/self/fd/2 "$R/dev/stderr"',
    ...DEVICES.filter((device) => fs.existsSync(device)).flatMap((device) => [
      `: > "$R"${quote(device)}`,
      `mount --bind ${quote(device)} "$R"${quote(device)}`,
    ]),
    `mkdir -p "$R"${quote(SANDBOX_WORK_DIR)} && mount -t tmpfs -o size=${WORK_DIR_BYTES},mode=1777 tmpfs "$R"${quote(SANDBOX_WORK_DIR)}`,
    ...binds.flatMap((bind) => bindReadOnly(bind)),
    ...hiddenInside(view, binds).map((hidden) => `mount -t tmpfs -o ro,size=4k tmpfs "$R"${quote(hidden)}`),
    ...[...view.packFiles].flatMap(([host, inside]) => bindReadOnly(host, inside)),
    'mount -o remount,ro "$R"',
    `exec unshare --user --map-user=${SANDBOX_UID} --map-group=${SANDBOX_UID} --mount --root="$R" --wd=${quote(SANDBOX_WORK_DIR)} -- "$@"`,
  ];
  return lines.join('\n');
}

/** The `unshare` command line that runs `command args` in the sandbox. */
export function unshareArgs(view: SandboxView, command: string, args: readonly string[]): string[] {
  const owner = ownWord();
  return [
    '--user',
    '--map-root-user',
    '--mount',
    '--pid',
    '--fork',
    '--kill-child',
    '--net',
    '--ipc',
    '--uts',
    '--',
    '/bin/sh',
    '-c',
    // A comment at its end carries the service's mark on the command line (ownerMark.ts).
    setupScript(view, ROOT_MOUNT_POINT) + (owner ? `\n# ${owner}` : ''),
    'sh',
    command,
    ...args,
  ];
}

/** The command line of one run: `unshareArgs` with the run's word in a comment at the end of its script. */
export function unshareRunArgs(args: readonly string[], runWord: string): string[] {
  const script = args.indexOf('-c', args.indexOf('--')) + 1;
  return args.map((arg, i) => (i === script ? `${arg}\n# ${runWord}` : arg));
}
