/**
 * The lesson panel's script. It owns no lesson logic: it says `ready`, renders whatever state the
 * extension sends, and turns clicks into messages. Every incoming message is validated first.
 */
import {
  parseToWebview,
  PROTOCOL_VERSION,
  type FromWebview,
  type PanelState,
  type RevealTarget,
} from '../shared/messages';
import { renderEmpty, renderLesson } from './renderLesson';
import { renderCourse } from './renderCourse';
import { elementId, type Ui } from './ui';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface LocalState {
  drafts: Record<string, string>;
  /** Sections the learner folded (true) or unfolded (false) themselves. */
  folds: Record<string, boolean>;
}

const vscode = acquireVsCodeApi();
const saved = vscode.getState() as Partial<LocalState> | undefined;
const record = <T>(v: unknown): Record<string, T> =>
  v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, T>) } : {};
const local: LocalState = { drafts: record<string>(saved?.drafts), folds: record<boolean>(saved?.folds) };
let current: PanelState | undefined;
const app = document.getElementById('app')!;

function flash(el: HTMLElement): void {
  el.classList.remove('flash');
  void el.offsetWidth; // restart the animation
  el.classList.add('flash');
}

/** How long a revealed element flashes (panel.css: .flash). */
const FLASH_MS = 1600;
/**
 * The element a link just revealed. A re-render in that moment (a check's Test Explorer update, a simulation
 * finishing) replaces it, which would stop the scroll half-way and drop the flash; render() reveals it again.
 */
let lastReveal: { readonly id: string; readonly until: number } | undefined;

const ui: Ui = {
  post: (message) => vscode.postMessage(message),
  draft: (id) => local.drafts[id] ?? '',
  setDraft: (id, value) => {
    local.drafts[id] = value;
    vscode.setState(local);
  },
  folded: (id) => (typeof local.folds[id] === 'boolean' ? local.folds[id] : undefined),
  setFolded: (id, folded) => {
    local.folds[id] = folded;
    vscode.setState(local);
  },
  reveal: (target: RevealTarget) => {
    const el = document.getElementById(elementId(target));
    if (!el) return;
    // A target inside a folded section: unfold it first, or there is nothing to scroll to.
    for (let d = el.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true;
    // The target's top, just under the sticky bar (scroll-margin-top): a card's title, not its middle.
    el.scrollIntoView({ block: 'start', behavior: 'smooth' });
    el.focus({ preventScroll: true });
    flash(el);
    lastReveal = { id: el.id, until: performance.now() + FLASH_MS };
  },
};

function render(state: PanelState): void {
  current = state;
  // Keep the learner's place: focus and scroll survive a re-render.
  const focusedId = document.activeElement instanceof HTMLElement ? document.activeElement.id : '';
  const scroll = window.scrollY;
  const parts = state.lesson ? renderLesson(state.lesson, state, ui) : renderEmpty(state, ui);
  // The course outline goes under the lesson's header (top bar, title), as its own section.
  if (state.course) parts.splice(Math.min(2, parts.length), 0, renderCourse(state.course, ui));
  app.replaceChildren(...parts);
  app.setAttribute('aria-busy', 'false');
  window.scrollTo(0, scroll);
  if (focusedId) document.getElementById(focusedId)?.focus({ preventScroll: true });
  const revealed = lastReveal && performance.now() < lastReveal.until ? document.getElementById(lastReveal.id) : null;
  if (revealed) {
    revealed.scrollIntoView({ block: 'start' });
    revealed.classList.add('flash');
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseToWebview(event.data);
  if (!message) {
    console.warn('lesson panel: ignored an invalid message', event.data);
    return;
  }
  switch (message.type) {
    case 'init':
      if (message.protocol !== PROTOCOL_VERSION)
        console.warn(`lesson panel: protocol ${message.protocol}, expected ${PROTOCOL_VERSION}`);
      render(message.state);
      return;
    case 'state':
      render(message.state);
      return;
    case 'checkStarted':
      if (current) render({ ...current, checking: true });
      return;
    case 'checkResult':
      render(message.state);
      // Every check lands on its verdict: a failing one on "what is wrong" (the verdict and its sentence) with
      // the first card's title, "where", right under it; a passing one on its ✓ and "You are done", which
      // would otherwise stay below the fold with only the small verdict in the top bar to show.
      if (message.check) ui.reveal({ kind: 'results' });
      return;
    case 'answerResult':
      render(message.state);
      document
        .querySelector(`#question-${CSS.escape(message.questionId)} .feedback`)
        ?.scrollIntoView({ block: 'nearest' });
      return;
    case 'reveal':
      ui.reveal(message.target);
      return;
    case 'simulationStarted':
      if (current?.underLoad) render({ ...current, underLoad: { ...current.underLoad, running: true } });
      return;
    case 'simulationResult':
      // Not scrolled to: it may finish while the learner reads the check's findings.
      render(message.state);
      return;
  }
});

vscode.postMessage({ type: 'ready', protocol: PROTOCOL_VERSION });
