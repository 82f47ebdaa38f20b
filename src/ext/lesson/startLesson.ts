/**
 * "Start Lesson…": pick a lesson and a language, copy its starter folder into the workspace (an existing
 * file is only replaced after a modal yes), open the learner's file with the lesson panel beside it, and
 * remember the session. Reading a lesson runs nothing, so this works in Restricted Mode too.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LANGUAGES, type Language } from '../../core/pack/schema';
import { resolveInside, type LoadedPack } from '../../node/packs/packs';
import type { Log } from '../workbench/log';
import type { PackService } from './packs';
import type { Session, SessionStore } from './session';

export interface StartLessonArgs {
  readonly lessonId?: string;
  readonly language?: Language;
}

const LANGUAGE_LABELS: Record<Language, string> = {
  python: 'Python',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
};

function parseArgs(raw: unknown): StartLessonArgs {
  if (typeof raw !== 'object' || raw === null) return {};
  const a = raw as Record<string, unknown>;
  return {
    ...(typeof a.lessonId === 'string' ? { lessonId: a.lessonId } : {}),
    ...(typeof a.language === 'string' && (LANGUAGES as readonly string[]).includes(a.language)
      ? { language: a.language as Language }
      : {}),
  };
}

async function pickLesson(packs: PackService, wanted: string | undefined): Promise<LoadedPack | undefined> {
  const { packs: all, broken } = await packs.all();
  if (wanted) {
    const found = all.find((p) => p.manifest.id === wanted);
    if (!found) void vscode.window.showErrorMessage(`There is no lesson "${wanted}".`);
    return found;
  }
  if (all.length === 0) {
    void vscode.window.showErrorMessage(
      `No lessons found${broken.length ? ` (${broken.length} could not be loaded; see the Lesson Companion output)` : ''}.`,
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    all.map((p) => ({
      label: p.manifest.title,
      description: `${p.manifest.id} · ${p.origin === 'built-in' ? 'built in' : p.origin}`,
      detail: p.manifest.summary,
      pack: p,
    })),
    { title: 'Start Lesson', placeHolder: 'Which lesson?', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.pack;
}

async function pickLanguage(pack: LoadedPack, wanted: Language | undefined): Promise<Language | undefined> {
  const offered = LANGUAGES.filter((l) => pack.manifest.starters[l]);
  if (wanted) {
    if (offered.includes(wanted)) return wanted;
    void vscode.window.showErrorMessage(`"${pack.manifest.title}" has no ${LANGUAGE_LABELS[wanted]} version.`);
    return undefined;
  }
  if (offered.length === 1) return offered[0];
  const picked = await vscode.window.showQuickPick(
    offered.map((l) => ({ label: LANGUAGE_LABELS[l], description: pack.manifest.starters[l]!.main, language: l })),
    { title: `Start Lesson: ${pack.manifest.title}`, placeHolder: 'Which language?' },
  );
  return picked?.language;
}

/** Every file under `dir`, as relative forward-slash paths. */
async function listFiles(dir: vscode.Uri, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const [name, type] of await vscode.workspace.fs.readDirectory(dir)) {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (type & vscode.FileType.Directory) out.push(...(await listFiles(vscode.Uri.joinPath(dir, name), rel)));
    else if (type & vscode.FileType.File) out.push(rel);
  }
  return out.sort();
}

async function readOrUndefined(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch {
    return undefined;
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Copies the starter into `folder`. Files that exist with other content are replaced only if the learner
 * says so in a modal dialog; "Keep Mine" still starts the lesson on the learner's files.
 * Returns false when the learner cancelled.
 */
async function copyStarter(pack: LoadedPack, language: Language, folder: vscode.Uri, log: Log): Promise<boolean> {
  const starter = pack.manifest.starters[language]!;
  const source = await resolveInside(pack.dir, starter.dir);
  if (!source) throw new Error(`the starter folder of "${pack.manifest.id}" points outside the pack`);
  const sourceUri = vscode.Uri.file(source);
  const files = await listFiles(sourceUri);
  const plan: { rel: string; content: Uint8Array; conflict: boolean; same: boolean }[] = [];
  for (const rel of files) {
    // A link in an installed pack must not copy files from elsewhere on disk.
    if (!(await resolveInside(source, rel))) continue;
    const content = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(sourceUri, ...rel.split('/')));
    const existing = await readOrUndefined(vscode.Uri.joinPath(folder, ...rel.split('/')));
    plan.push({
      rel,
      content,
      conflict: existing !== undefined && !sameBytes(existing, content),
      same: existing !== undefined && sameBytes(existing, content),
    });
  }
  const conflicts = plan.filter((p) => p.conflict);
  let overwrite = false;
  if (conflicts.length > 0) {
    const names = conflicts.map((c) => c.rel).join(', ');
    const choice = await vscode.window.showWarningMessage(
      `${names} already exist${conflicts.length === 1 ? 's' : ''} in this folder with other content.`,
      {
        modal: true,
        detail:
          "Replace with the lesson's starter (your version is lost), or keep your files and continue the lesson with them?",
      },
      'Replace',
      'Keep Mine',
    );
    if (!choice) return false;
    overwrite = choice === 'Replace';
  }
  for (const p of plan) {
    if (p.same || (p.conflict && !overwrite)) continue;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, ...p.rel.split('/')), p.content);
    log.info(`copied ${p.rel}`);
  }
  return true;
}

/** The command; returns the started session (the integration tests use it). */
export async function startLesson(
  rawArgs: unknown,
  deps: { packs: PackService; store: SessionStore; log: Log; showPanel: () => Promise<void> },
): Promise<Session | undefined> {
  const args = parseArgs(rawArgs);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    const open = await vscode.window.showWarningMessage(
      'Open a folder first: the lesson copies its starter files into it.',
      'Open Folder…',
    );
    if (open) await vscode.commands.executeCommand('workbench.action.files.openFolder');
    return undefined;
  }
  const pack = await pickLesson(deps.packs, args.lessonId);
  if (!pack) return undefined;
  const language = await pickLanguage(pack, args.language);
  if (!language) return undefined;
  try {
    if (!(await copyStarter(pack, language, folder.uri, deps.log))) return undefined;
  } catch (error) {
    deps.log.error('could not copy the starter', error);
    void vscode.window.showErrorMessage(`Could not copy the lesson's starter files: ${(error as Error).message}`);
    return undefined;
  }
  const mainFile = path.posix.normalize(pack.manifest.starters[language]!.main);
  const session: Session = { lessonId: pack.manifest.id, language, mainFile, folder: folder.uri.toString() };
  await deps.store.start(session);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, ...mainFile.split('/')));
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
  await deps.showPanel();
  deps.log.info(`started ${pack.manifest.id}@${pack.manifest.version} (${pack.origin}) in ${language}: ${mainFile}`);
  return session;
}
