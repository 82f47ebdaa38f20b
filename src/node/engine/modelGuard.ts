/**
 * The pack's model as the engine uses it (loadModel's last step): its data copied into this realm, its functions
 * called through the realm bridge, and every exception turned into a ModelError that names the pack.
 */
import type { AnswerShape, ArgumentKind, ReferenceModel } from '../../core/model/model';
import type { RealmBridge } from './realmBridge';
import type { GuardedCall } from './worldGuard';

/** An error's message, also for an Error made in the model's own realm (not an instance of this realm's Error). */
function messageOf(reason: unknown): string {
  if (typeof reason === 'object' && reason !== null && typeof (reason as { message?: unknown }).message === 'string')
    return (reason as { message: string }).message;
  return String(reason);
}

/** A failure of the pack's own model while checking: the pack's fault, reported with its name. */
export class ModelError extends Error {
  constructor(
    readonly pack: string,
    readonly file: string,
    readonly operation: string,
    readonly reason: unknown,
  ) {
    super(`the reference model of lesson "${pack}" (${file}) failed in ${operation}: ${messageOf(reason)}`);
    this.name = 'ModelError';
  }
}

/** The lines as strings of this realm, in an array of this realm (a loop: this runs at every step of a check). */
function copyLines(lines: readonly string[]): string[] {
  const n = lines.length;
  const copy = new Array<string>(n);
  for (let i = 0; i < n; i++) copy[i] = String(lines[i]);
  return copy;
}

type ModelData = Pick<
  ReferenceModel,
  'id' | 'description' | 'mutations' | 'resetCommand' | 'resetAnswer' | 'observeCommand' | 'grammar' | 'poolSize'
>;

/** The model's data, copied: arrays made in the model's vm context have another Array.prototype. */
function copiedData(model: ReferenceModel): ModelData {
  const mutations = Array.from(model.mutations, (m) => ({
    id: String(m.id),
    description: String(m.description ?? ''),
    ...(m.nondeterministic ? { nondeterministic: true } : {}),
  }));
  return {
    id: String(model.id),
    description: String(model.description ?? ''),
    mutations,
    resetCommand: String(model.resetCommand),
    resetAnswer: copyLines(model.resetAnswer),
    ...(model.observeCommand ? { observeCommand: String(model.observeCommand) } : {}),
    ...(model.grammar
      ? {
          grammar: Object.fromEntries(
            Object.entries(model.grammar).map(([verb, kinds]) => [
              String(verb),
              Array.from(kinds as ArrayLike<ArgumentKind>, (kind) => String(kind) as ArgumentKind),
            ]),
          ),
        }
      : {}),
    ...(model.poolSize ? { poolSize: { min: Number(model.poolSize.min), max: Number(model.poolSize.max) } } : {}),
  };
}

function guardedStep(model: ReferenceModel, bridge: RealmBridge, call: GuardedCall): ReferenceModel['step'] {
  const step: ReferenceModel['step'] = (state, command, on, observed) => {
    const result = bridge.step(
      model.step,
      model,
      state,
      String(command),
      bridge.set(on),
      observed === undefined ? undefined : bridge.lines(observed),
    ) as ReturnType<ReferenceModel['step']>;
    const answer =
      result.answer.kind === 'crash'
        ? { kind: 'crash' as const, error: String(result.answer.error) }
        : { kind: 'lines' as const, lines: copyLines(result.answer.lines) };
    const alternatives = result.alternatives;
    return alternatives
      ? { state: result.state, answer, alternatives: Array.from(alternatives, copyLines) }
      : { state: result.state, answer };
  };
  return (state, command, on, observed) => {
    try {
      return step(state, command, on, observed);
    } catch (error) {
      // The operation is named only when it failed: a check steps the model a million times.
      return call(`step("${command}")`, () => {
        throw error;
      });
    }
  };
}

/** Each command's answer shape, asked of the model once (up to 4096 commands) and its pattern remade here. */
function guardedAnswerShape(
  model: ReferenceModel,
  bridge: RealmBridge,
  call: GuardedCall,
): ReferenceModel['answerShape'] {
  const shapes = new Map<string, AnswerShape>();
  return (command) => {
    let shape = shapes.get(command);
    if (!shape) {
      shape = call(`answerShape("${command}")`, () => {
        const own = bridge.call(model.answerShape, model, String(command)) as AnswerShape;
        return own.kind === 'many'
          ? { kind: 'many' as const, line: new RegExp(own.line.source, own.line.flags) }
          : { kind: 'one' as const };
      });
      if (shapes.size < 4096) shapes.set(command, shape);
    }
    return shape;
  };
}

function guardedDescribeDifference(
  model: ReferenceModel,
  bridge: RealmBridge,
  call: GuardedCall,
): NonNullable<ReferenceModel['describeDifference']> {
  return (state: unknown, command: string, expected: readonly string[], actual: readonly string[]) =>
    call('describeDifference()', () =>
      String(
        bridge.call(
          model.describeDifference!,
          model,
          state,
          String(command),
          bridge.lines(expected),
          bridge.lines(actual),
        ),
      ),
    );
}

/**
 * The model as the engine uses it: every answer copied into this realm (arrays made in the model's vm
 * context have another Array.prototype), and every exception turned into a ModelError that names the pack.
 */
export function guardModel(model: ReferenceModel, pack: string, file: string, bridge: RealmBridge): ReferenceModel {
  const call = <T>(operation: string, fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw new ModelError(pack, file, operation, error);
    }
  };
  return {
    ...copiedData(model),
    initial: () => call('initial()', () => bridge.call(model.initial, model)),
    step: guardedStep(model, bridge, call),
    snapshot: (state) =>
      call('snapshot()', () => ({
        ...(bridge.call(model.snapshot, model, state) as ReturnType<ReferenceModel['snapshot']>),
      })),
    answerShape: guardedAnswerShape(model, bridge, call),
    isAnswerLine: (line) => call('isAnswerLine()', () => bridge.call(model.isAnswerLine, model, String(line)) === true),
    generate: (random, length) =>
      call('generate()', () =>
        copyLines(bridge.call(model.generate, model, bridge.random(random), Number(length)) as string[]),
      ),
    ...(model.describeDifference ? { describeDifference: guardedDescribeDifference(model, bridge, call) } : {}),
  };
}
