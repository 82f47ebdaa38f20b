/**
 * What a program that passes a check prints on its first run, known before any program runs: the check's
 * cases (every hidden transcript and the generated ones, each after the model's reset) as one input, and every
 * answer the reference gives them. A host that keeps it (src/node/check/fastPass.ts) passes a correct program
 * on that one run, without the model; a check hands it over as it starts (runPhase.ts), and a waiting engine
 * worker computes it before its check comes (src/node/engine/worker.ts).
 */
import { DEFAULT_FUZZ_LENGTH, DEFAULT_FUZZ_TRANSCRIPTS, generatedCases, hiddenCases, type Case } from './cases';
import type { CheckInput, CheckOptions, PassingBatch } from './checkInput';
import type { ReferenceModel } from '../model/model';

/** The check's cases: the hidden transcripts, then the generated ones (a list's index in every batch). */
export function checkCases(
  input: Pick<CheckInput, 'manifest' | 'model' | 'transcripts'> & {
    readonly options: Pick<CheckOptions, 'seed' | 'fuzzTranscripts' | 'fuzzLength'>;
  },
): { hidden: Case[]; generated: Case[]; fuzzLength: number } {
  const { model, manifest, options } = input;
  const fuzzLength = options.fuzzLength ?? manifest.fuzz?.length ?? DEFAULT_FUZZ_LENGTH;
  const count = options.fuzzTranscripts ?? manifest.fuzz?.transcripts ?? DEFAULT_FUZZ_TRANSCRIPTS;
  return {
    hidden: hiddenCases(input.transcripts),
    generated: generatedCases(model, options.seed, count, fuzzLength),
    fuzzLength,
  };
}

/** The first run's input for these cases, and exactly what a program that passes prints for it. */
export function batchOf(
  model: ReferenceModel,
  hidden: readonly Case[],
  generated: readonly Case[],
  seed: number,
): PassingBatch {
  const cases = [...hidden, ...generated];
  return {
    input: cases.map((c) => [model.resetCommand, ...c.commands].join('\n')).join('\n') + '\n',
    expectedStdout: cases
      .map((c) => [...model.resetAnswer, ...c.expected.lines].map((line) => `${line}\n`).join(''))
      .join(''),
    transcripts: hidden.map((h) => ({ name: h.name, description: h.label })),
    fuzz: { seed, transcripts: generated.length },
  };
}

/** The passing batch of a check with these settings, computed on the model alone. */
export function passingBatch(
  input: Pick<CheckInput, 'manifest' | 'model' | 'transcripts'> & {
    readonly options: Pick<CheckOptions, 'seed' | 'fuzzTranscripts' | 'fuzzLength'>;
  },
): PassingBatch {
  const { hidden, generated } = checkCases(input);
  return batchOf(input.model, hidden, generated, input.options.seed);
}
