import { parseArgs } from 'node:util';
import { answerQuestion, listQuestions, showAnswer, UnknownQuestionError, type QuestionInfo } from '../node/packs/quiz';
import { EXIT, UsageError, type CliCommand } from './command';
import { selectPack } from './packSelection';

function describe(q: QuestionInfo): string {
  const head = `${q.n}. [${q.id}] (${q.section === 'failure' ? 'failure question' : 'quiz'}, ${q.kind}${q.orderless ? ', any order' : ''})`;
  const lines = [head, ...q.prompt.split('\n').map((l) => `   ${l}`)];
  q.choices?.forEach((c, i) => lines.push(`     ${i + 1}) ${c}`));
  if (q.commands) lines.push('   Commands:', ...q.commands.map((c) => `     > ${c}`));
  if (q.step !== undefined) lines.push(`   (read-order step ${q.step}${q.stepTitle ? `: ${q.stepTitle}` : ''})`);
  return lines.join('\n');
}

/** Answers one question of a lesson: the terminal counterpart of the panel's quiz. */
export const answerCommand: CliCommand = {
  name: 'answer',
  usage: 'answer --lesson <id|dir> (--list | --question <n|id> ("<answer>" | --show)) [--json]',
  summary:
    'check an answer to a failure question or quiz question. n counts the failure questions first, then the quiz (1-based; --list shows them). ' +
    'Choices: their number or letter ("2", "b", "1, 3"). Predictions: every printed line, in order. --show prints the worked answer instead. Exit 0 right, 1 wrong, 2 usage',
  async run(args, io) {
    // A negative number is an answer, not an option: `answer --question 7 -1` must mean "-1".
    const NEGATIVE = /^-\.?\d/;
    const { values, positionals: raw } = parseArgs({
      args: args.map((a) => (NEGATIVE.test(a) ? `\u0000${a}` : a)),
      allowPositionals: true,
      options: {
        lesson: { type: 'string' },
        question: { type: 'string' },
        list: { type: 'boolean' },
        json: { type: 'boolean' },
        show: { type: 'boolean' },
      },
    });
    const positionals = raw.map((p) => p.replace(/^\u0000/, ''));
    if (!values.lesson) throw new UsageError('answer needs --lesson <id|dir>');
    const pack = await selectPack(io, values.lesson);
    if (values.list) {
      const questions = listQuestions(pack);
      if (values.json)
        io.out(
          JSON.stringify(
            questions.map(({ question: _q, ...info }) => info),
            null,
            2,
          ) + '\n',
        );
      else io.out(questions.length ? questions.map(describe).join('\n\n') + '\n' : 'This lesson has no questions.\n');
      return EXIT.ok;
    }
    if (values.question === undefined) throw new UsageError('answer needs --question <n|id> (or --list)');
    if (values.show) {
      // The learner asked for the answer: the worked explanation, and for a prediction what is printed.
      let shown;
      try {
        shown = showAnswer(pack, values.question);
      } catch (error) {
        if (error instanceof UnknownQuestionError) throw new UsageError(error.message);
        throw error;
      }
      if (values.json) io.out(JSON.stringify(shown, null, 2) + '\n');
      else
        io.out(
          [`The answer: ${shown.explanation}`, ...(shown.expectedOutput ?? []).map((l) => `  ${l}`)].join('\n') + '\n',
        );
      return EXIT.ok;
    }
    // Several words are one answer: `answer ... a b c` is the same as `answer ... "a b c"`.
    if (positionals.length === 0) throw new UsageError('answer needs the answer text after the options');
    const text = positionals.join(' ');
    let result;
    try {
      result = await answerQuestion(pack, values.question, text);
    } catch (error) {
      if (error instanceof UnknownQuestionError) throw new UsageError(error.message);
      throw error;
    }
    if (values.json) {
      io.out(JSON.stringify(result, null, 2) + '\n');
    } else {
      const lines = [result.correct ? `✓ ${result.feedback}` : `✗ ${result.feedback}`];
      if (result.explanation) lines.push(`  ${result.explanation}`);
      if (!result.correct && !result.unreadable && result.step !== undefined)
        lines.push(`  Re-read step ${result.step}${result.stepTitle ? `: ${result.stepTitle}` : ''}.`);
      io.out(lines.join('\n') + '\n');
    }
    return result.correct ? EXIT.ok : EXIT.failed;
  },
};
