/**
 * Runs the learner's file through one of the lesson's load scenarios, in a child process of the CLI (as
 * checks run), and keeps the last result for the panel's "Under load" chart. It runs learner code, so the
 * Workspace Trust gate is here too. One simulation at a time: a new one, a check or closing the panel stops
 * the running one.
 */
import * as vscode from 'vscode';
import { mistakeTitle } from '../../core/report/findings';
import type { CheckReport } from '../../core/report/report';
import { chooseScenario, scenarioAfterCheck } from '../../core/world/scenarioChoice';
import type { UnderLoadResult } from '../../node/service/protocol';
import { ServiceError } from '../../node/service/client';
import { UNTRUSTED_MESSAGE } from './checkRunner';
import type { Log } from '../workbench/log';
import type { PackService } from '../lesson/packs';
import type { SessionStore } from '../lesson/session';
import { readSettings } from '../workbench/settings';
import type { ServiceHost } from './serviceHost';

export interface SimulationSnapshot {
  readonly running: boolean;
  readonly result: { readonly result: UnderLoadResult; readonly at: string } | null;
  readonly error?: string;
  /** The scenario the learner chose last, if any. */
  readonly chosen?: string;
}

/**
 * The result with its sentence's "Your check found “…”" in the card's words: the service names the mistake by
 * the pack's base title, while the card above names the variant the check found ("… without counting it").
 */
function retitled(result: UnderLoadResult, title: string): UnderLoadResult {
  const named = result.mistake?.title;
  if (!named || named === title) return result;
  const from = `Your check found “${named}”`;
  if (!result.sentence.startsWith(from)) return result;
  return {
    ...result,
    mistake: { ...result.mistake!, title },
    sentence: `Your check found “${title}”${result.sentence.slice(from.length)}`,
  };
}

export class SimulationRunner implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly started = new vscode.EventEmitter<void>();
  private readonly finished = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  readonly onDidStart = this.started.event;
  /** A simulation ended with a result or an error (not when it was cancelled). */
  readonly onDidFinish = this.finished.event;

  private abort: AbortController | undefined;
  /** `mistake`: the mistake of the check it was run after, which its sentence names. */
  private last: { key: string; result: UnderLoadResult; at: string; mistake?: string } | undefined;
  private error: { key: string; message: string } | undefined;
  private chosen: { key: string; scenario: string } | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly log: Log,
    /** The window's check service: simulations run there, as `lesson-companion simulate` runs them. */
    private readonly service: ServiceHost,
  ) {}

  get running(): boolean {
    return this.abort !== undefined;
  }

  cancel(): void {
    this.abort?.abort();
  }

  /** What the panel shows for this lesson and language. */
  snapshot(lessonId: string, language: string): SimulationSnapshot {
    const key = `${lessonId}/${language}`;
    return {
      running: this.running,
      result: this.last?.key === key ? { result: this.last.result, at: this.last.at } : null,
      ...(this.error?.key === key ? { error: this.error.message } : {}),
      ...(this.chosen?.key === key ? { chosen: this.chosen.scenario } : {}),
    };
  }

  /**
   * After a check from the panel: show what its first mistake does under load, when a scenario shows it, or
   * how the passing program holds up. A check that could not run the program has nothing to show.
   */
  async afterCheck(report: CheckReport): Promise<void> {
    const pack = await this.packs.find(report.lesson);
    const next = scenarioAfterCheck(
      pack?.manifest.scenarios ?? [],
      report.status,
      report.mistakes.map((m) => m.id),
    );
    const found = report.mistakes.find((m) => m.id === next?.mistake);
    if (next) return this.run(next.scenario.id, next.mistake, false, found ? mistakeTitle(found) : undefined);
    this.forgetUnfound(report);
  }

  /**
   * After any check: a result whose sentence names a mistake this check did not find ("Your check found …",
   * from an earlier check of other code) would contradict the cards above it, so it goes.
   */
  forgetUnfound(report: CheckReport): void {
    const shown = this.last?.mistake;
    if (shown === undefined || report.mistakes.some((m) => m.id === shown)) return;
    this.last = undefined;
    this.changed.fire();
  }

  /**
   * Runs `scenario` (default: the one that shows `mistake`, else the learner's last choice, else the first).
   * `title`: the mistake as the check's card names it (its variant's wording), for the sentence that quotes it.
   */
  async run(scenario?: string, mistake?: string, chosenByLearner = false, title?: string): Promise<void> {
    this.cancel();
    const session = this.store.session;
    const uri = this.store.mainUri(session);
    if (!session || !uri) return;
    const key = `${session.lessonId}/${session.language}`;
    const fail = (message: string): void => {
      this.error = { key, message };
      this.log.warn(`simulation: ${message}`);
      this.changed.fire();
    };
    if (!vscode.workspace.isTrusted) return fail(UNTRUSTED_MESSAGE);
    const pack = await this.packs.find(session.lessonId);
    if (!pack) return fail(`The lesson "${session.lessonId}" is not installed any more.`);
    // Template and world scenarios alike: the service runs either.
    const scenarios = pack.manifest.scenarios ?? [];
    const picked = chooseScenario(
      scenarios,
      scenario ?? (mistake ? undefined : this.chosen?.key === key ? this.chosen.scenario : undefined),
      mistake ? [mistake] : [],
    );
    if (!picked) return fail(`The lesson "${session.lessonId}" has no scenario "${scenario}".`);
    if (scenario && chosenByLearner) this.chosen = { key, scenario };
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) await open.save();
    const abort = new AbortController();
    this.abort = abort;
    this.error = undefined;
    this.started.fire();
    this.changed.fire();
    try {
      const target = await this.service.target();
      if (!target) return fail(`The lesson "${session.lessonId}" is not installed any more.`);
      this.log.info(`simulate ${session.lessonId}/${picked.id} ${uri.fsPath}${mistake ? ` (mistake ${mistake})` : ''}`);
      const shows = mistake && picked.shows?.includes(mistake) ? mistake : undefined;
      const result = await this.service.client.simulate(
        {
          ...target,
          file: uri.fsPath,
          scenario: picked.id,
          ...(shows ? { mistake: shows } : {}),
          timeLimitMs: readSettings(uri).timeLimitMs,
        },
        abort.signal,
      );
      this.last = {
        key,
        result: title ? retitled(result, title) : result,
        at: new Date().toISOString(),
        ...(shows ? { mistake: shows } : {}),
      };
      const stopped = result.runs.yours?.stopped;
      this.log.info(`simulation done: ${stopped ? `stopped at tick ${stopped.tick}` : 'ran to the end'}`);
    } catch (error) {
      if (error instanceof ServiceError && error.cancelled) return;
      this.error = { key, message: `The simulation could not run: ${(error as Error).message ?? String(error)}` };
      this.log.error('simulation failed', error);
    } finally {
      if (this.abort === abort) {
        this.abort = undefined;
        if (!abort.signal.aborted) this.finished.fire();
        this.changed.fire();
      }
    }
  }

  dispose(): void {
    this.cancel();
    this.changed.dispose();
    this.started.dispose();
    this.finished.dispose();
  }
}
