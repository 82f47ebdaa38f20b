/**
 * Loads a pack's reference model: a JavaScript or TypeScript module inside the pack. It is pack code, so it
 * gets only the language: it is evaluated in a fresh `vm` context with no `require` of Node's modules, no
 * `process`, no `console`; it may import other files of its own folder, nothing else. It is handed no
 * object or function of this realm (through one, `x.constructor.constructor('return process')()` would
 * reach everything): its `module`, `exports`, `require`, the mutation sets, the random source and every
 * list it is given are made in its own realm (realmBridge.ts), and it is called through a strict function
 * of its realm, so that `caller` names nothing of ours. (A vm context is not a
 * security boundary on its own; checks also run the model in a process that Node's permission model keeps
 * away from files, processes and workers; see src/node/engineProcess.ts.)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import type { Baseline, ReferenceModel, ScenarioWorld } from '../../core/model/model';
import { grammarShapeProblem, poolSizeShapeProblem } from '../../core/model/grammar';
import { fsReason } from '../errors/errors';
import { transformModule } from '../languages/transpile';
import { guardModel, ModelError } from './modelGuard';
import { realmBridge, type RealmBridge } from './realmBridge';
import { guardBaselines, guardWorld, type GuardedCall } from './worldGuard';

export { guardModel, ModelError } from './modelGuard';

export class ModelLoadError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'ModelLoadError';
  }
}

/** The one import from outside its pack a model may make: the queue world shipped with lesson-companion (src/worlds/queues.ts). */
export const SHIPPED_QUEUE_WORLD = 'lesson-companion/worlds/queues';

/** That world's file: dist/worlds/queues.js beside the bundle that loads models, or its source when running from source. */
function shippedQueueWorld(): string {
  const bundled = path.join(__dirname, 'worlds', 'queues.js');
  return fs.existsSync(bundled) ? bundled : path.resolve(__dirname, '..', '..', 'worlds', 'queues.ts');
}

/**
 * The realm's own built-ins a model reads at nearly every step, handed to each module as parameters: code run in a
 * vm context looks a global up through the context's interceptor on every read (a Map or a BigInt at every step of
 * every candidate's walk: a check steps the model a million times), a parameter it finds in its own scope: a guarded
 * step of the built-in lessons' models takes a ninth less time. They are read inside the realm, never ours; a
 * module's own declaration of one of these names shadows it, as it would shadow the global.
 */
const REALM_BUILT_INS = [
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'BigInt',
  'Math',
  'JSON',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Symbol',
  'RegExp',
  'Reflect',
  'Error',
  'TypeError',
  'RangeError',
];

/** Models are small; anything bigger is a mistake or an attack. */
const MAX_MODEL_BYTES = 512 * 1024;
const LOAD_TIMEOUT_MS = 2000;

const REQUIRED_FUNCTIONS = ['initial', 'step', 'snapshot', 'answerShape', 'isAnswerLine', 'generate'] as const;

/**
 * Whether `error` is ours. A model's thrown value may be a Proxy whose traps throw, or an object whose
 * conversion to text throws: every look at one is guarded, so nothing it throws escapes our catch blocks.
 */
function isLoadError(error: unknown): error is ModelLoadError {
  try {
    return error instanceof ModelLoadError;
  } catch {
    return false;
  }
}

/** The message of `error` as text, or `otherwise` when it has none that can be read. */
function textOf(error: unknown, otherwise: string): string {
  try {
    const text = error instanceof Error ? error.message : String(error);
    return typeof text === 'string' ? text : otherwise;
  } catch {
    return otherwise;
  }
}

function lineOf(error: unknown, file: string): number | null {
  let stack = '';
  try {
    stack = error instanceof Error ? String(error.stack ?? '') : '';
  } catch {
    return null;
  }
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  return match ? Number(match[1]) : null;
}

/** Throws ModelLoadError with the file and, where known, the line, for everything a model file can get wrong. */
export function checkModelShape(candidate: unknown, file: string): ReferenceModel {
  const fail = (message: string): never => {
    throw new ModelLoadError(file, null, message);
  };
  if (typeof candidate !== 'object' || candidate === null)
    fail('the module exports no model: export it as `model` or as the default export');
  const m = candidate as Record<string, unknown>;
  if (typeof m.id !== 'string' || m.id === '') fail('the model has no `id` (a string)');
  if (typeof m.resetCommand !== 'string' || m.resetCommand.trim() === '')
    fail('the model has no `resetCommand` (the command that starts a transcript over)');
  if (!Array.isArray(m.resetAnswer) || !m.resetAnswer.every((l) => typeof l === 'string'))
    fail('`resetAnswer` must be a list of strings');
  if (m.observeCommand !== undefined && typeof m.observeCommand !== 'string') fail('`observeCommand` must be a string');
  const grammarProblemText = m.grammar === undefined ? undefined : grammarShapeProblem(m.grammar);
  if (grammarProblemText) fail(grammarProblemText);
  const poolSizeProblemText = m.poolSize === undefined ? undefined : poolSizeShapeProblem(m.poolSize);
  if (poolSizeProblemText) fail(poolSizeProblemText);
  if (!Array.isArray(m.mutations)) fail('`mutations` must be a list of { id, description }');
  const ids = new Set<string>();
  for (const [i, mutation] of (m.mutations as unknown[]).entries()) {
    const mu = mutation as Record<string, unknown> | null;
    if (typeof mu?.id !== 'string' || mu.id === '') fail(`mutation ${i + 1} has no \`id\``);
    if (ids.has(mu!.id as string)) fail(`mutation "${String(mu!.id)}" is declared twice`);
    ids.add(mu!.id as string);
  }
  for (const name of REQUIRED_FUNCTIONS)
    if (typeof m[name] !== 'function') fail(`the model has no \`${name}\` function`);
  if (m.describeDifference !== undefined && typeof m.describeDifference !== 'function')
    fail('`describeDifference` must be a function');
  return candidate as ReferenceModel;
}

/**
 * Evaluates `entry` (absolute path inside `packDir`) and the relative imports it makes, each once. Every
 * path is checked to stay inside the pack after following links.
 */
export function loadModel(
  packDir: string,
  entry: string,
  transpiled: Readonly<Record<string, string>> = {},
): ReferenceModel {
  const modules = new ModelModules(packDir, transpiled);
  const exports = modules.load(entry) as Record<string, unknown> | null;
  const candidate = exports && typeof exports === 'object' ? (exports.model ?? exports.default) : undefined;
  const model = checkModelShape(candidate, entry);
  const guarded = guardModel(model, path.basename(packDir), path.relative(packDir, entry), modules.bridge);
  const call: GuardedCall = (operation, fn) => {
    try {
      return fn();
    } catch (error) {
      throw new ModelError(path.basename(packDir), path.relative(packDir, entry), operation, error);
    }
  };
  const world = guardWorld(exports?.world, modules.bridge, call);
  worlds.set(guarded, {
    ...(world ? { world } : {}),
    baselines: guardBaselines(exports?.baselines, modules.bridge, call),
  });
  return guarded;
}

/**
 * A model's modules in the model's own realm: each file read, compiled and evaluated once, every path and import
 * checked to stay inside the pack (or to be the shipped queue world).
 */
class ModelModules {
  private readonly realPack: string;
  private readonly context: vm.Context;
  readonly bridge: RealmBridge;
  private readonly cache = new Map<string, { exports: unknown }>();
  /** A failed import, kept whole (file and line) while the model's realm sees only its message. */
  private importFailure: ModelLoadError | undefined;
  /** REALM_BUILT_INS as the model's realm has them. */
  private builtIns: unknown[] | undefined;

  constructor(
    private readonly packDir: string,
    private readonly transpiled: Readonly<Record<string, string>>,
  ) {
    this.realPack = fs.realpathSync(packDir);
    this.context = vm.createContext(Object.create(null), {
      name: `lesson model ${path.basename(packDir)}`,
      codeGeneration: { strings: false, wasm: false },
    });
    this.bridge = realmBridge(this.context);
  }

  /** The exports of `file`, evaluated the first time it is asked for. */
  load(file: string, shipped = false): unknown {
    const real = this.realPathInside(file, shipped);
    const cached = this.cache.get(real);
    if (cached) return cached.exports;
    const code = this.compiledSource(file, real, shipped);
    const module = this.bridge.module();
    this.cache.set(real, module);
    this.evaluate(file, code, module);
    return module.exports;
  }

  /** The file's real path, after links: it must exist and, unless shipped, be inside the pack. */
  private realPathInside(file: string, shipped: boolean): string {
    const { packDir, realPack } = this;
    let real: string;
    try {
      real = fs.realpathSync(file);
    } catch {
      throw new ModelLoadError(file, null, `the model file ${path.relative(packDir, file) || file} does not exist`);
    }
    if (!shipped && real !== realPack && !real.startsWith(realPack + path.sep))
      throw new ModelLoadError(file, null, `the model imports ${file}, which is outside the pack`);
    return real;
  }

  /**
   * The file's code as JavaScript: a bounded regular file, transpiled by the host when it could (modelCache.ts),
   * else here. The shipped world's built file (dist/worlds/queues.js) is CommonJS already: transpiling it again
   * cost the worker loading the transpiler and a transform (~55 ms) on every check of a lesson that imports it.
   */
  private compiledSource(file: string, real: string, shipped: boolean): string {
    const relative = path.relative(this.packDir, file);
    const stat = fs.statSync(real);
    if (!stat.isFile()) throw new ModelLoadError(file, null, `${relative} is not a file`);
    if (stat.size > MAX_MODEL_BYTES)
      throw new ModelLoadError(file, null, `${relative} is larger than ${MAX_MODEL_BYTES / 1024} KiB`);
    let source: string;
    try {
      source = fs.readFileSync(real, 'utf8');
    } catch (error) {
      throw new ModelLoadError(file, null, `cannot read ${relative}: ${fsReason(error) ?? (error as Error).message}`);
    }
    const given = shipped && real.endsWith('.js') ? source : this.transpiled[real];
    const compiled = given !== undefined ? { code: given } : transformModule(source, file);
    if ('error' in compiled)
      throw new ModelLoadError(file, compiled.line, `${relative} does not compile: ${compiled.error}`);
    return compiled.code;
  }

  /** Runs the module's code in the model's realm, with a `require` that only resolves imports inside the pack. */
  private evaluate(file: string, code: string, module: { exports: unknown }): void {
    const requireOf = this.bridge.require((specifier) => {
      try {
        return { value: this.requireFrom(file, specifier) };
      } catch (error) {
        if (isLoadError(error)) this.importFailure ??= error;
        return { error: textOf(error, 'the import failed') };
      }
    });
    // On the first line, as the code's own first line: an error's line number is the file's.
    const wrapper = `(function (${REALM_BUILT_INS.join(', ')}) { return function (exports, require, module) {${code}\n}; })`;
    try {
      const outer = vm.runInContext(wrapper, this.context, { filename: file, timeout: LOAD_TIMEOUT_MS }) as unknown;
      this.builtIns ??= vm.runInContext(`[${REALM_BUILT_INS.join(', ')}]`, this.context) as unknown[];
      const fn = this.bridge.call(outer, undefined, ...this.builtIns);
      this.bridge.call(fn, undefined, module.exports, requireOf, module);
    } catch (error) {
      if (isLoadError(error)) throw error;
      if (this.importFailure) throw this.importFailure;
      const message = textOf(error, 'it threw something that is not an error');
      throw new ModelLoadError(
        file,
        lineOf(error, file),
        `${path.relative(this.packDir, file)} failed to load: ${message}`,
      );
    }
  }

  /** What `require(specifier)` in `file` gives: the shipped queue world, or a file of the pack by a relative path. */
  private requireFrom(file: string, specifier: string): unknown {
    const { packDir, realPack } = this;
    if (specifier === SHIPPED_QUEUE_WORLD) return this.load(shippedQueueWorld(), true);
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) {
      throw new Error(
        `a lesson model cannot import "${specifier}": models are self-contained (no Node modules, no packages; only "${SHIPPED_QUEUE_WORLD}", shipped with lesson-companion)`,
      );
    }
    const base = path.resolve(path.dirname(file), specifier);
    // Said before the file is looked for: the engine's permission model would refuse the look with no reason.
    const outside = (root: string): boolean => {
      const relative = path.relative(root, base);
      return relative.startsWith('..') || path.isAbsolute(relative);
    };
    if (outside(path.resolve(packDir)) && outside(realPack)) {
      throw new ModelLoadError(
        file,
        null,
        `${path.relative(packDir, file)} imports "${specifier}", which is outside the pack: a model may import only files of its own pack`,
      );
    }
    const candidates = [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts'), path.join(base, 'index.js')];
    const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
    if (!found) throw new Error(`a lesson model imports "${specifier}", which does not exist`);
    return this.load(found);
  }
}

/** What a model module exports beside its model for scenarios: its world and baselines (worldGuard.ts). */
export interface ModelWorld {
  readonly world?: ScenarioWorld;
  readonly baselines: Readonly<Record<string, Baseline>>;
}

const worlds = new WeakMap<ReferenceModel, ModelWorld>();

/** The world and baselines loaded with `model` (none for a model not loaded by loadModel). */
export function worldOf(model: ReferenceModel): ModelWorld {
  return worlds.get(model) ?? { baselines: {} };
}
