/**
 * Where the engine worker (which runs the pack's model) runs: in the same sandbox as a learner's program
 * where this machine has one (sandbox.ts), with its own PID namespace, no network, and a read-only view of
 * the engine bundle, Node, and the pack only; tied to the CLI's life in every case (parentDeath.ts), since a
 * model that loops never reads the end of its stdin. Node's permission model holds it inside that too.
 *
 * Not in VS Code's own runtime (Electron run as Node): it needs its application folder and more, so there
 * the worker has the permission model, an empty environment and the realm bridge, not the sandbox.
 *
 * A vm realm and Node's permission model are not a security boundary; only the OS sandbox is (issue 29). So a
 * model that is not built in runs without one only where the user said so: with --sandbox=off (which says in
 * a line that the model then runs as the user), or for that one pack (`--trust-model <lesson id>`, or the
 * editor's question that names the pack). Else the check is refused in words (ModelNotHeldError).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SandboxUnavailableError } from '../sandbox/contain';
import { tiedToParent } from '../sandbox/parentDeath';
import { availableSandbox, bwrapArgs, bwrapRunArgs, type SandboxSetting } from '../sandbox/sandbox';
import { newRunWord } from '../sandbox/ownerMark';
import { isInside, type SandboxView } from '../sandbox/sandboxView';
import { installedToolCopies } from '../sandbox/privateFolders';
import { unshareArgs, unshareRunArgs } from '../sandbox/unshareSandbox';

/** The worker's command line; a sandboxed one carries a word of its own, by which its end finds all of it. */
export type EngineWrap = (
  command: string,
  args: readonly string[],
) => { command: string; args: string[]; runWord?: string };

function withRealPaths(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    out.add(path.resolve(p));
    try {
      out.add(fs.realpathSync(p));
    } catch {
      // Missing: the worker says so when it starts.
    }
  }
  return [...out];
}

/**
 * What the model must not read of the lessons installed as global npm packages, shown through /usr
 * (privateFolders.ts): every copy but the one that holds the engine or the pack, and in that one every lesson
 * but the pack's own (their hidden transcripts).
 */
function otherLessons(bundleDir: string, packDir: string): string[] {
  const needed = withRealPaths([bundleDir, packDir]);
  const holdsNeeded = (folder: string): boolean => needed.some((p) => p === folder || isInside(p, folder));
  return installedToolCopies(['/usr', '/usr/local']).flatMap((copy) => {
    if (!holdsNeeded(copy)) return [copy];
    const lessons = path.join(copy, 'lessons');
    const names = fs.existsSync(lessons) ? fs.readdirSync(lessons) : [];
    return names.map((name) => path.join(lessons, name)).filter((lesson) => !holdsNeeded(lesson));
  });
}

/** The pack whose model the worker runs: where it comes from decides whether it may run without a sandbox. */
export interface ModelPack {
  readonly dir: string;
  readonly origin: 'built-in' | 'installed' | 'folder';
  readonly manifest: { readonly id: string };
}

/** A pack's model that is not built in, where no sandbox can hold it and the user did not allow it for that pack. */
export class ModelNotHeldError extends SandboxUnavailableError {
  constructor(readonly packId: string) {
    super(
      `the model of lesson "${packId}" is code of the pack, not built in, and no sandbox can hold it here (it needs Linux with bubblewrap, or unshare with user namespaces${process.versions.electron ? ', and a Node outside the editor' : ''}): it would run as you. Install bubblewrap, or, if you trust this pack, allow it for this pack alone (--trust-model ${packId})`,
    );
    this.name = 'ModelNotHeldError';
  }
}

/**
 * The wrap for the engine worker of a check or simulation of `pack`. `trustModel` is the id of the one pack
 * whose model the user lets run without a sandbox.
 */
export async function engineWrap(
  setting: SandboxSetting,
  pack: ModelPack,
  trustModel?: string,
): Promise<{ wrap: EngineWrap }> {
  const packDir = pack.dir;
  const sandbox = setting === 'off' || process.versions.electron ? null : await availableSandbox();
  if (!sandbox && setting !== 'off' && pack.origin !== 'built-in' && trustModel !== pack.manifest.id)
    throw new ModelNotHeldError(pack.manifest.id);
  return {
    wrap: (command, args) => {
      if (!sandbox) return tiedToParent(command, args);
      // The worker's last argument is its bundle; the libraries it loads lie beside it.
      const bundle = args[args.length - 1] ?? '';
      const view: SandboxView = {
        readOnly: withRealPaths([path.dirname(bundle), packDir, command]),
        packFiles: new Map(),
        hidden: otherLessons(path.dirname(bundle), packDir),
      };
      // bwrap too is tied by setpriv: --die-with-parent holds its child, not the outer bwrap (contain.ts says why).
      const runWord = newRunWord();
      const sandboxArgs =
        sandbox.tool === 'bwrap'
          ? bwrapRunArgs(bwrapArgs(view, command, args), runWord)
          : unshareRunArgs(unshareArgs(view, command, args), runWord);
      return { ...tiedToParent(sandbox.path, sandboxArgs), runWord };
    },
  };
}
