/** What a class report says of its lesson (its own file: the report and its quiz tally both read it). */
export interface LessonInfo {
  readonly id: string;
  readonly title: string;
  readonly version: string;
  /** Read-order step titles, 1-based by position + 1. */
  readonly steps: readonly string[];
  /** Failure question id → prompt. */
  readonly questions: Readonly<Record<string, string>>;
  /** The pack's `hints.maxRung`: no card shows a rung above it. */
  readonly maxRung?: number;
}
