/**
 * The quiz of a class, per question, for reteaching: how many answered it, how many got it right, and the
 * wrong answer most of the others gave (in its normal form, as the check compares answers).
 */
import type { LessonInfo } from './lessonInfo';
import type { GradeRow } from './row';

export interface QuestionTally {
  readonly id: string;
  readonly prompt: string;
  readonly answered: number;
  readonly right: number;
  /** The most common wrong answer and how many gave it; ties: the first by text. */
  readonly commonWrong: { readonly answer: string; readonly count: number } | null;
}

export function quizByQuestion(lesson: LessonInfo, rows: readonly GradeRow[]): QuestionTally[] {
  const order: string[] = [];
  const tallies = new Map<string, { answered: number; right: number; wrong: Map<string, number> }>();
  for (const row of rows) {
    const quiz = row.quiz;
    if (!quiz?.questions) continue;
    for (const id of quiz.questions) {
      let tally = tallies.get(id);
      if (!tally) {
        tally = { answered: 0, right: 0, wrong: new Map() };
        tallies.set(id, tally);
        order.push(id);
      }
      if (quiz.unanswered.includes(id)) continue;
      tally.answered += 1;
      if (!quiz.wrong.includes(id)) {
        tally.right += 1;
        continue;
      }
      const answer = quiz.wrongAnswers?.[id];
      if (answer !== undefined) tally.wrong.set(answer, (tally.wrong.get(answer) ?? 0) + 1);
    }
  }
  return order.map((id) => {
    const { answered, right, wrong } = tallies.get(id)!;
    let commonWrong: QuestionTally['commonWrong'] = null;
    for (const [answer, count] of [...wrong].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      if (!commonWrong || count > commonWrong.count) commonWrong = { answer, count };
    return { id, prompt: lesson.questions[id] ?? id, answered, right, commonWrong };
  });
}
