/** What render modules may do besides building DOM: talk to the extension, keep drafts, scroll. */
import type { FromWebview, RevealTarget } from '../shared/messages';

export interface Ui {
  post(message: FromWebview): void;
  /** Typed-but-not-sent answers, so a re-render (or a hidden panel) does not lose them. */
  draft(questionId: string): string;
  setDraft(questionId: string, value: string): void;
  /** Scroll to a part of this panel (unfolding the section it is in). */
  reveal(target: RevealTarget): void;
  /** The learner's own choice to fold or unfold a section; undefined until they made one. */
  folded(sectionId: string): boolean | undefined;
  setFolded(sectionId: string, folded: boolean): void;
}

export function elementId(target: RevealTarget): string {
  switch (target.kind) {
    case 'step':
      return `step-${target.index}`;
    case 'question':
      return `question-${target.id}`;
    case 'mistake':
      return `mistake-${target.id}`;
    case 'results':
      return 'results';
  }
}
