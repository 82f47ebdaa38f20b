/**
 * "Lesson Companion: Install Lesson Pack…": installs a `.lessonpack` into the extension's global storage
 * with the same checks as `lesson-companion install` (src/node/packs/installPack.ts). Installing runs nothing
 * from the pack, so it is allowed in Restricted Mode.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InstallError, installPack, type InstallResult } from '../../node/packs/installPack';
import { builtInLessonsDir } from '../../node/packs/locations';
import { registerCommand } from './registry';

export const INSTALL_PACK_COMMAND = 'lessonCompanion.installPack';

/** Why the last install did not happen, in the words shown to the user (for lessonCompanion.internal.state). */
let lastRefusal: string | undefined;
export const lastInstallRefusal = (): string | undefined => lastRefusal;

/** For tests and automation: `{ replace: true }` answers the replacement question without a dialog. */
interface InstallArgs {
  readonly replace?: boolean;
  /** Answers "hide the built-in lesson of the same id?" without a dialog. */
  readonly shadow?: boolean;
  /** Answers "this pack contains code that runs when you check: install it?" without a dialog. */
  readonly trustCode?: boolean;
}

async function chooseFile(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Install Lesson Pack',
    openLabel: 'Install',
    canSelectMany: false,
    filters: { 'Lesson packs': ['lessonpack'] },
  });
  return picked?.[0];
}

export function registerInstallPackCommand(context: vscode.ExtensionContext, onInstalled: () => void): void {
  const packsRoot = vscode.Uri.joinPath(context.globalStorageUri, 'packs').fsPath;
  registerCommand(
    context,
    INSTALL_PACK_COMMAND,
    async (uri?: unknown, args?: InstallArgs): Promise<InstallResult | undefined> => {
      const file = uri instanceof vscode.Uri ? uri : await chooseFile();
      if (!file) return undefined;
      if (file.scheme !== 'file') {
        void vscode.window.showErrorMessage(
          'Lesson packs can be installed only from a file on this computer; download it first.',
        );
        return undefined;
      }
      const confirmReplace = async (existing: string, next: string): Promise<boolean> => {
        if (args?.replace !== undefined) return args.replace;
        const replace = `Replace with ${next}`;
        const answer = await vscode.window.showWarningMessage(
          `Version ${existing} of this lesson is installed. Replace it with ${next}?`,
          {
            modal: true,
            detail: `This pack contains code: version ${next}'s reference model runs on this computer every time you check a program in this lesson. Install lesson packs only from people you trust. Your own files in your workspace are not touched; only the lesson pack is replaced.`,
          },
          replace,
        );
        return answer === replace;
      };
      const confirmCode = async (id: string, version: string, model: string): Promise<boolean> => {
        if (args?.trustCode !== undefined) return args.trustCode;
        const install = 'Install';
        const answer = await vscode.window.showWarningMessage(
          `Install lesson ${id} ${version}? This pack contains code that runs when you check.`,
          {
            modal: true,
            detail: `Its reference model (${model}) runs on this computer every time you check a program in this lesson (in a separate process that may not write files or start programs). Install lesson packs only from people you trust.`,
          },
          install,
        );
        return answer === install;
      };
      const confirmShadow = async (builtIn: string, next: string): Promise<boolean> => {
        if (args?.shadow !== undefined) return args.shadow;
        const install = 'Install Anyway';
        const answer = await vscode.window.showWarningMessage(
          `This pack (version ${next}) has the id of a lesson built into Lesson Companion (version ${builtIn}). Install it in place of the built-in lesson?`,
          {
            modal: true,
            detail: 'While it is installed, starting this lesson starts the installed pack, not the built-in one.',
          },
          install,
        );
        return answer === install;
      };
      const builtInDir = builtInLessonsDir(path.join(context.extensionPath, 'dist'));
      const install = (force: boolean): Promise<InstallResult> =>
        installPack(file.fsPath, { packsRoot, confirmReplace, force, builtInDir, confirmShadow, confirmCode });
      lastRefusal = undefined;
      try {
        let result: InstallResult;
        try {
          result = await install(false);
        } catch (error) {
          if (!(error instanceof InstallError && error.reason === 'not-newer')) throw error;
          // The same or an older version: only on an explicit "Reinstall", e.g. to repair a damaged copy.
          const reinstall = 'Reinstall';
          const choice =
            args?.replace !== undefined
              ? args.replace
                ? reinstall
                : undefined
              : await vscode.window.showWarningMessage(
                  error.message.replace(/ Install it anyway with --force\.$/, ''),
                  { modal: true },
                  reinstall,
                );
          if (choice !== reinstall) return undefined;
          result = await install(true);
        }
        onInstalled();
        void vscode.window.showInformationMessage(
          `Installed lesson ${result.id} ${result.version}${result.replaced ? ` (replacing ${result.replaced})` : ''}. Start it with "Lesson Companion: Start Lesson".`,
        );
        return result;
      } catch (error) {
        if (error instanceof InstallError) {
          lastRefusal = error.message;
          if (error.reason === 'declined')
            void vscode.window.showInformationMessage(`Nothing was installed: ${error.message}.`);
          else void vscode.window.showErrorMessage(`The lesson pack was not installed. ${error.message}`);
          return undefined;
        }
        lastRefusal = (error as Error).message;
        void vscode.window.showErrorMessage(`The lesson pack was not installed: ${(error as Error).message}`);
        return undefined;
      }
    },
  );
}
