/**
 * Where the engine worker (which runs the pack's model) runs: in the same sandbox as a learner's program
 * where this machine has one (sandbox.ts), with its own PID namespace, no network, and a read-only view of
 * the engine bundle, Node, and the pack only; tied to the CLI's life in every case (parentDeath.ts), since a
 * model that loops never reads the end of its stdin. Node's permission model holds it inside that too.
 *
 * Not in VS Code's own runtime (Electron run as Node): it needs its application folder and more, so there
 * the worker has the permission model, an empty environment and the realm bridge, not the sandbox.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tiedToParent } from '../sandbox/parentDeath';
import { availableSandbox, bwrapArgs, type SandboxSetting } from '../sandbox/sandbox';
import type { SandboxView } from '../sandbox/sandboxView';
import { unshareArgs } from '../sandbox/unshareSandbox';

export type EngineWrap = (command: string, args: readonly string[]) => { command: string; args: string[] };

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

/** The wrap for the engine worker of a check or simulation of the pack at `packDir`. */
export async function engineWrap(setting: SandboxSetting, packDir: string): Promise<{ wrap: EngineWrap }> {
  const sandbox = setting === 'off' || process.versions.electron ? null : await availableSandbox();
  return {
    wrap: (command, args) => {
      if (!sandbox) return tiedToParent(command, args);
      // The worker's last argument is its bundle; the libraries it loads lie beside it.
      const bundle = args[args.length - 1] ?? '';
      const view: SandboxView = {
        readOnly: withRealPaths([path.dirname(bundle), packDir, command]),
        packFiles: new Map(),
        hidden: [],
      };
      if (sandbox.tool === 'bwrap') return { command: sandbox.path, args: bwrapArgs(view, command, args) };
      return tiedToParent(sandbox.path, unshareArgs(view, command, args));
    },
  };
}
