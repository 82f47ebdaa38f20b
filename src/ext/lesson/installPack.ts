/**
 * "Lesson Companion: Install Lesson Pack…": installs a `.lessonpack` into the extension's global storage
 * with the same checks as `lesson-companion install` (src/node/packs/installPack.ts). Installing runs nothing
 * from the pack, so it is allowed in Restricted Mode.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { installLessonArchive, type ArchiveInstallResult } from '../../node/course/courseBundle';
import { InstallError, type InstallOptions, type InstallResult } from '../../node/packs/installPack';
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

/** The install's questions, each a modal dialog unless `args` answers it. */
function installQuestions(
  args: InstallArgs | undefined,
): Pick<InstallOptions, 'confirmReplace' | 'confirmCode' | 'confirmShadow'> {
  const ask = async (message: string, detail: string, yes: string): Promise<boolean> =>
    (await vscode.window.showWarningMessage(message, { modal: true, detail }, yes)) === yes;
  return {
    confirmReplace: async (existing, next) =>
      args?.replace ??
      ask(
        `Version ${existing} of this lesson is installed. Replace it with ${next}?`,
        `This pack contains code: version ${next}'s reference model runs on this computer every time you check a program in this lesson. Install lesson packs only from people you trust. Your own files in your workspace are not touched; only the lesson pack is replaced.`,
        `Replace with ${next}`,
      ),
    confirmCode: async (id, version, model) =>
      args?.trustCode ??
      ask(
        `Install lesson ${id} ${version}? This pack contains code that runs when you check.`,
        `Its reference model (${model}) runs on this computer every time you check a program in this lesson (in a separate process that may not write files or start programs). Install lesson packs only from people you trust.`,
        'Install',
      ),
    confirmShadow: async (builtIn, next) =>
      args?.shadow ??
      ask(
        `This pack (version ${next}) has the id of a lesson built into Lesson Companion (version ${builtIn}). Install it in place of the built-in lesson?`,
        'While it is installed, starting this lesson starts the installed pack, not the built-in one.',
        'Install Anyway',
      ),
  };
}

/**
 * Installs, and if the same or an older version is installed, installs again only on an explicit
 * "Reinstall" (e.g. to repair a damaged copy). Undefined when that was not chosen.
 */
async function installOrReinstall(
  install: (force: boolean) => Promise<ArchiveInstallResult>,
  args: InstallArgs | undefined,
): Promise<ArchiveInstallResult | undefined> {
  try {
    return await install(false);
  } catch (error) {
    if (!(error instanceof InstallError && error.reason === 'not-newer')) throw error;
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
    return choice === reinstall ? install(true) : undefined;
  }
}

/** Says why nothing was installed, and keeps it for lessonCompanion.internal.state. */
function showRefusal(error: unknown): undefined {
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
      const builtInDir = builtInLessonsDir(path.join(context.extensionPath, 'dist'));
      const questions = installQuestions(args);
      // A course's .lessonpack installs the course and every lesson it holds, each asked about as a pack is.
      const install = (force: boolean): Promise<ArchiveInstallResult> =>
        installLessonArchive(file.fsPath, { packsRoot, force, builtInDir, ...questions });
      lastRefusal = undefined;
      try {
        const result = await installOrReinstall(install, args);
        if (!result) return undefined;
        onInstalled();
        void vscode.window.showInformationMessage(
          result.kind === 'course'
            ? `Installed course ${result.id} with its lessons (${[...(result.lessons ?? []).map((l) => l.id), ...(result.unchanged ?? [])].join(', ')}). Start its first lesson with "Lesson Companion: Start Lesson".`
            : `Installed lesson ${result.id} ${result.version}${result.replaced ? ` (replacing ${result.replaced})` : ''}. Start it with "Lesson Companion: Start Lesson".`,
        );
        return result;
      } catch (error) {
        return showRefusal(error);
      }
    },
  );
}
