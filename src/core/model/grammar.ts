/**
 * A model's command grammar (ReferenceModel.grammar): whether a command is one the protocol has, with the
 * arguments it takes. Used to keep generated and shrunk transcripts inside the protocol and by validate.
 */
import type { ArgumentKind, CommandGrammar, ReferenceModel } from './model';

export const ARGUMENT_KINDS: readonly ArgumentKind[] = ['name', 'number', 'names'];
const WHOLE_NUMBER = /^\d+$/;

const fitsKind = (kind: ArgumentKind, word: string): boolean =>
  kind === 'number' ? WHOLE_NUMBER.test(word) : kind === 'name' || kind === 'names';

/** The grammar's own wording of one command's arguments: `LIMIT <number> <number>`, `SETUP <name>…`. */
export function commandForm(verb: string, kinds: readonly ArgumentKind[]): string {
  return [verb, ...kinds.map((k) => (k === 'names' ? '<name>…' : `<${k}>`))].join(' ');
}

/** Why `command` is outside the grammar, or undefined when it fits. */
export function grammarProblem(grammar: CommandGrammar, command: string): string | undefined {
  const [verb = '', ...args] = command
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const kinds = Object.prototype.hasOwnProperty.call(grammar, verb) ? grammar[verb] : undefined;
  if (!kinds)
    return `\`${command}\` is not a command of the protocol (its commands: ${Object.keys(grammar).join(', ')})`;
  const list = kinds[kinds.length - 1] === 'names';
  const fixed = list ? kinds.slice(0, -1) : kinds;
  const arityOk = list ? args.length >= fixed.length : args.length === fixed.length;
  const kindsOk = args.every((word, i) => fitsKind(fixed[i] ?? 'names', word));
  return arityOk && kindsOk ? undefined : `\`${command}\` does not fit \`${commandForm(verb, kinds)}\``;
}

/** A test for commands inside the model's grammar; every command fits a model without one. */
export function commandFits(model: Pick<ReferenceModel, 'grammar'>): (command: string) => boolean {
  const grammar = model.grammar;
  return grammar ? (command) => grammarProblem(grammar, command) === undefined : () => true;
}

/** What is wrong with a grammar as a model declares it (it is pack code: anything may be there), or undefined. */
export function grammarShapeProblem(grammar: unknown): string | undefined {
  if (typeof grammar !== 'object' || grammar === null || Array.isArray(grammar))
    return '`grammar` must be an object: command name → list of argument kinds';
  for (const [verb, kinds] of Object.entries(grammar as Record<string, unknown>)) {
    if (!/^\S+$/.test(verb)) return `\`grammar\`: "${verb}" is not one word`;
    if (!Array.isArray(kinds) || !kinds.every((k) => (ARGUMENT_KINDS as readonly unknown[]).includes(k))) {
      return `\`grammar.${verb}\` must be a list of argument kinds (${ARGUMENT_KINDS.map((k) => `"${k}"`).join(', ')})`;
    }
    if (kinds.slice(0, -1).includes('names'))
      return `\`grammar.${verb}\`: "names" (a list of names) can only be the last argument`;
  }
  return undefined;
}

/** The most names a model may declare for a generated list (`poolSize.max`): a bound on the transcripts' size. */
export const MAX_POOL_SIZE = 64;

/** What is wrong with a model's `poolSize` as it declares it (pack code), or undefined. */
export function poolSizeShapeProblem(poolSize: unknown): string | undefined {
  const bounds = poolSize as { min?: unknown; max?: unknown } | null;
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (typeof poolSize !== 'object' || bounds === null || !whole(bounds.min) || !whole(bounds.max))
    return '`poolSize` must be { min, max }: whole numbers of names, 0 or more';
  if (bounds.min > bounds.max) return `\`poolSize\`: min (${bounds.min}) is more than max (${bounds.max})`;
  if (bounds.max > MAX_POOL_SIZE) return `\`poolSize\`: max (${bounds.max}) is more than ${MAX_POOL_SIZE}`;
  return undefined;
}

/** How many names the list argument (`names`) of a command holds, or undefined when its form has none. */
export function listSize(grammar: CommandGrammar, command: string): number | undefined {
  const [verb = '', ...args] = command
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const kinds = Object.prototype.hasOwnProperty.call(grammar, verb) ? grammar[verb] : undefined;
  if (!kinds || kinds[kinds.length - 1] !== 'names') return undefined;
  return Math.max(0, args.length - (kinds.length - 1));
}
