// The types of a lesson pack's reference model: `import type { ReferenceModel } from 'lesson-companion/model'`.
// Generated from src/core/model/model.ts by scripts/write-model-types.mjs; do not edit. See docs/authoring.md.
/**
 * A reference model is the executable truth of a lesson's protocol: a pure state machine that answers
 * one command at a time. Mutations are named, switchable mistakes injected into the same machine, so
 * a mutant is "the reference with these mutation ids on", and pairs of mistakes come for free.
 *
 * A model ships inside its lesson pack (`"model": "model/model.ts"` in lesson.json), so the engine knows no
 * protocol of its own. docs/authoring.md documents this interface for pack authors with a worked example.
 */
export type Answer = {
    readonly kind: 'lines';
    readonly lines: readonly string[];
}
/** The mutant would crash here (an uncaught error), printing nothing for this command. */
 | {
    readonly kind: 'crash';
    readonly error: string;
};
export interface StepResult<S> {
    readonly state: S;
    readonly answer: Answer;
    /**
     * Other answers that are just as right under these mutations: set by a nondeterministic mutation such as
     * "ties go to any of the tied". The engine then accepts any of them at this step.
     */
    readonly alternatives?: readonly (readonly string[])[];
}
export interface MutationInfo {
    readonly id: string;
    readonly description: string;
    /**
     * The mutation allows several answers (its `step` returns `alternatives`), like a program that breaks ties
     * at random. It can only be matched step by step, never as a whole program.
     */
    readonly nondeterministic?: boolean;
}
/** How to cut a stream of answer lines back into per-command answers. */
export type AnswerShape = {
    readonly kind: 'one';
}
/** Zero or more lines, each matching `line`. */
 | {
    readonly kind: 'many';
    readonly line: RegExp;
};
/**
 * The kind of one argument of a command: `name` (one word), `number` (a whole number: digits only) or `names`
 * (zero or more words; only as the last argument).
 */
export type ArgumentKind = 'name' | 'number' | 'names';
/** Each command's first word → the kinds of its arguments, in order: `{ SETUP: ['names'], FINISHED: ['name'], CHOOSE: [] }`. */
export type CommandGrammar = Readonly<Record<string, readonly ArgumentKind[]>>;
/** The fewest and the most names of a generated list argument: `{ min: 0, max: 8 }`. */
export interface PoolSize {
    readonly min: number;
    readonly max: number;
}
export interface Random {
    /** An integer in [0, n). */
    int(n: number): number;
    pick<T>(items: readonly T[]): T;
}
export interface ReferenceModel<S = unknown> {
    readonly id: string;
    readonly description: string;
    readonly mutations: readonly MutationInfo[];
    /**
     * A command that puts any program back into the initial state and answers exactly `resetAnswer`.
     * It lets the engine run many transcripts in one process.
     */
    readonly resetCommand: string;
    readonly resetAnswer: readonly string[];
    /**
     * A read-only command that prints the program's bookkeeping (a command that lists the counts). The engine runs it after
     * every step of a confirmed counterexample to show the learner's own counts beside the reference's.
     */
    readonly observeCommand?: string;
    /**
     * The protocol's commands and their arguments. With it, generated transcripts keep only commands inside it,
     * shrinking never drops an argument a command needs (a learner is never shown `LIMIT 1` for `LIMIT 1 5`),
     * and validate checks every hidden transcript against it. Without it, commands are not checked.
     */
    readonly grammar?: CommandGrammar;
    /**
     * How many names a generated list argument (`names`, e.g. a pool's backends) holds, from `min` to `max`, as
     * `generate` makes them. Most generated lists should stay small (checks stay quick, shrunk transcripts short),
     * with a few up to `max`, so that a program that keeps a fixed number of slots (a list of 4) is caught; the
     * shrinker then keeps the fewest names that still fail. validate checks that `generate` keeps to the range and
     * reaches `max` (the grammar must have a `names` argument).
     */
    readonly poolSize?: PoolSize;
    initial(): S;
    /**
     * Answers one command. `observed` is the learner program's own answer to it, when known: the model then
     * follows it wherever it tells something about the program's state (the choice it made, the counts it
     * printed), under these same mutations, and returns the state that follows. That is how a
     * diagnosis stays in step with a program after their first difference. The returned `answer` is always the
     * model's own.
     */
    step(state: S, command: string, mutations: ReadonlySet<string>, observed?: readonly string[]): StepResult<S>;
    /** The visible bookkeeping after a command, for trace tables of lessons without an observe command. */
    snapshot(state: S): Readonly<Record<string, number | string>>;
    answerShape(command: string): AnswerShape;
    /** True when a stdout line could be an answer of this protocol at all; others are stray prints. */
    isAnswerLine(line: string): boolean;
    /** One random transcript's commands, for fuzzing. Deterministic for a given Random. */
    generate(random: Random, length: number): string[];
    /**
     * One sentence, in the learner's terms, on how the program's answer differs from the reference's at a
     * step no known mistake explains, e.g. "CHOOSE took c with 1 in flight while a had 0".
     */
    describeDifference?(state: S, command: string, expected: readonly string[], actual: readonly string[]): string;
}
/**
 * What a world does at one point of a scenario's run: its next state, and commands to send the program whose
 * answers it does not read (they are written with the next command whose answer it reads: one round trip).
 */
export interface WorldStep<S> {
    readonly state: S;
    readonly send?: readonly string[];
}
/** A number per tick, or one number per lane (in the order of `lanes`). */
export type Measures = Readonly<Record<string, number | readonly number[]>>;
/**
 * A scenario's world (the model module's `world` export): deterministic pack code with no I/O that says what
 * a program under load is sent and what its answers mean. The engine drives ticks: for each program (the
 * learner's, the reference, each baseline) it calls `start`, then for every tick `tick`, `arrival` and
 * `answer` once per arrival, and `endTick`, whose measures are the series the scenario draws. The same
 * answers give the same run: any chance comes from `random`, seeded by the scenario.
 */
export interface ScenarioWorld<S = unknown, P = unknown> {
    /** The scenario's `params` from lesson.json, checked: returned as the world uses them, or an Error thrown whose message says what is wrong. */
    params(raw: unknown): P;
    /** How many ticks a run lasts. */
    ticks(params: P): number;
    /** The lanes a per-lane measure has one number for (e.g. the backends), in order. */
    lanes(params: P): readonly string[];
    /** The state before the first tick, and the commands that set the program up. */
    start(params: P, random: Random): WorldStep<S>;
    /** The start of tick `tick` (from 1): commands to send (e.g. a clock tick), and how many arrivals it has. */
    tick(state: S, tick: number): WorldStep<S> & {
        readonly arrivals: number;
    };
    /** Arrival `index` of this tick (from 0): the command whose answer the world reads, sent after `send`. */
    arrival(state: S, index: number): WorldStep<S> & {
        readonly ask: string;
    };
    /** What the answer means: the next state, or `notAnswer` saying why the line is no answer (the run stops). */
    answer(state: S, line: string): WorldStep<S> | {
        readonly notAnswer: string;
    };
    /** The end of the tick: its named measures. */
    endTick(state: S): WorldStep<S> & {
        readonly measures: Measures;
    };
}
/** A baseline (the model module's `baselines` export, by id): a small model the learner's program is compared with. */
export interface Baseline<S = unknown> {
    /** As the chart names it: "Sticky hashing", "Allow all". */
    readonly title: string;
    readonly model: {
        initial(): S;
        step(state: S, command: string): {
            readonly state: S;
            readonly answer: Answer;
        };
    };
}
