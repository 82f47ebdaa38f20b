/**
 * The message protocol between the extension host and the lesson panel webview, in the style of VS Code's
 * markdown preview (`previewMessaging.d.ts`): discriminated unions keyed on `type`, one version number,
 * and a runtime guard for every message either side receives (a webview is another process; a stale
 * panel restored after an update may speak an older protocol).
 *
 * Fields named `...Html` are HTML produced by the extension's markdown renderer (markdown-it with
 * `html: false`, so pack HTML arrives escaped). Every other string is plain text, and the webview puts
 * it into the DOM with `textContent` only.
 */

import { isId, isInt, isObj, isStr } from './guards';
import { isAnswerView, isCheckView, isPanelState, isRevealTarget } from './panelViewGuards';
import type { AnswerView, CheckView, PanelState, RevealTarget } from './panelViews';

export type * from './panelViews';
export { isPanelState } from './panelViewGuards';

/**
 * Bump when a message or view type changes shape.
 * 2: traces with the learner's own counts beside the reference's, run/debug a trace, show an answer,
 *    the verdict as a sentence plus details, the progress line, where a finding points.
 * 3: "Under load": the lesson's scenarios, a simulation's chart, runSimulation / simulationStarted /
 *    simulationResult.
 */
export const PROTOCOL_VERSION = 3;

// ---- extension -> webview ----

export type ToWebview =
  | { readonly type: 'init'; readonly protocol: number; readonly state: PanelState }
  | { readonly type: 'state'; readonly state: PanelState }
  | { readonly type: 'checkStarted' }
  | { readonly type: 'checkResult'; readonly check: CheckView | null; readonly state: PanelState }
  | {
      readonly type: 'answerResult';
      readonly questionId: string;
      readonly result: AnswerView;
      readonly state: PanelState;
    }
  | { readonly type: 'reveal'; readonly target: RevealTarget }
  | { readonly type: 'simulationStarted' }
  | { readonly type: 'simulationResult'; readonly state: PanelState };

// ---- webview -> extension ----

export type FromWebview =
  | { readonly type: 'ready'; readonly protocol: number }
  | { readonly type: 'openStep'; readonly index: number }
  | { readonly type: 'runStep'; readonly index: number }
  | { readonly type: 'runCheck' }
  | { readonly type: 'answer'; readonly questionId: string; readonly answer: string }
  | { readonly type: 'openMistake'; readonly id: string }
  /** Run / debug a trace: the extension looks the transcript up in its own report, the webview only names it. */
  | { readonly type: 'runTrace'; readonly mistakeId: string | null }
  | { readonly type: 'debugTrace'; readonly mistakeId: string | null }
  | { readonly type: 'showFix'; readonly mistakeId: string }
  | { readonly type: 'showAnswer'; readonly questionId: string }
  | { readonly type: 'startLesson' }
  | { readonly type: 'manageTrust' }
  /** Run the learner's program through one of the lesson's load scenarios. */
  | { readonly type: 'runSimulation'; readonly scenario: string }
  /** Start the course's next lesson (the extension checks it is the one its outline offers). */
  | { readonly type: 'nextLesson'; readonly lesson: string };

// ---- runtime guards: everything that crosses the boundary is checked before use (guards.ts, panelViewGuards.ts) ----

/** Validates a message from the webview. Returns it typed, or undefined for anything else. */
export function parseFromWebview(raw: unknown): FromWebview | undefined {
  if (!isObj(raw) || typeof raw.type !== 'string') return undefined;
  switch (raw.type) {
    case 'ready':
      return isInt(raw.protocol, 0, 1_000_000) ? { type: 'ready', protocol: raw.protocol } : undefined;
    case 'openStep':
    case 'runStep':
      return isInt(raw.index, 1, 1000) ? { type: raw.type, index: raw.index } : undefined;
    case 'nextLesson':
      return isId(raw.lesson) ? { type: 'nextLesson', lesson: raw.lesson } : undefined;
    case 'runCheck':
    case 'startLesson':
    case 'manageTrust':
      return { type: raw.type };
    case 'answer':
      return isId(raw.questionId) && isStr(raw.answer, 4000)
        ? { type: 'answer', questionId: raw.questionId, answer: raw.answer }
        : undefined;
    case 'openMistake':
      return isId(raw.id) ? { type: 'openMistake', id: raw.id } : undefined;
    case 'runTrace':
    case 'debugTrace':
      return raw.mistakeId === null || isId(raw.mistakeId) ? { type: raw.type, mistakeId: raw.mistakeId } : undefined;
    case 'showAnswer':
      return isId(raw.questionId) ? { type: 'showAnswer', questionId: raw.questionId } : undefined;
    case 'showFix':
      return isId(raw.mistakeId) ? { type: 'showFix', mistakeId: raw.mistakeId } : undefined;
    case 'runSimulation':
      return isId(raw.scenario) ? { type: 'runSimulation', scenario: raw.scenario } : undefined;
    default:
      return undefined;
  }
}

/** Validates a message from the extension (the webview's side of the boundary). */
export function parseToWebview(raw: unknown): ToWebview | undefined {
  if (!isObj(raw) || typeof raw.type !== 'string') return undefined;
  switch (raw.type) {
    case 'init':
      return isInt(raw.protocol, 0, 1_000_000) && isPanelState(raw.state)
        ? { type: 'init', protocol: raw.protocol, state: raw.state }
        : undefined;
    case 'state':
      return isPanelState(raw.state) ? { type: 'state', state: raw.state } : undefined;
    case 'checkStarted':
      return { type: 'checkStarted' };
    case 'checkResult':
      return (raw.check === null || isCheckView(raw.check)) && isPanelState(raw.state)
        ? { type: 'checkResult', check: raw.check, state: raw.state }
        : undefined;
    case 'answerResult':
      return isId(raw.questionId) && isAnswerView(raw.result) && isPanelState(raw.state)
        ? { type: 'answerResult', questionId: raw.questionId, result: raw.result, state: raw.state }
        : undefined;
    case 'reveal':
      return isRevealTarget(raw.target) ? { type: 'reveal', target: raw.target } : undefined;
    case 'simulationStarted':
      return { type: 'simulationStarted' };
    case 'simulationResult':
      return isPanelState(raw.state) ? { type: 'simulationResult', state: raw.state } : undefined;
    default:
      return undefined;
  }
}
