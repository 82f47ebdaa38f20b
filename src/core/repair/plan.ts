/**
 * The search plan: which edits to try, cheapest first. Edits at the lines the report located come first,
 * by the operators that invert the named mistake; then the other operators there; then the same near the
 * lines, in the function, and in the whole file. The node side runs them in that order within its bounds.
 */
import { propose, type OperatorName, type Proposal } from './operators';
import { walk, type ParsedFile, type SyntaxNode, type TextEdit } from './tree';

/** A mistake the report named, and where it pointed. */
export interface RepairTarget {
  readonly mistake: string;
  /** 1-based lines, most suspicious first; empty when the report could not locate the mistake. */
  readonly lines: readonly number[];
  /** The lesson model's answer (one line) to the command where the program first went wrong, when known. */
  readonly answer?: string;
  /** The first line of the function the report names: its body is near, even where no located line is. */
  readonly functionLine?: number;
}

export interface Candidate {
  readonly edits: readonly TextEdit[];
  readonly operators: readonly OperatorName[];
  readonly description: string;
  readonly cost: number;
}

/**
 * Which operators invert which mistake, by words in the mistake's id (lessons name their own mistakes, so
 * core knows only the kinds: ties, negative counts, increments, empty pools, resets, caps).
 */
const INVERTS: readonly { readonly words: RegExp; readonly operators: readonly OperatorName[] }[] = [
  {
    words: /tie|order|first|rotat|random/,
    operators: [
      'unwrap-call',
      'tie-key',
      'tie-callback',
      'random-tie',
      'keep-part',
      'swap-min-max',
      'flip-comparison',
      'constant-condition',
    ],
  },
  {
    words: /negative|floor|below|wrap|unsigned|close|done/,
    operators: ['floor', 'floor-guard', 'constant-condition', 'flip-comparison'],
  },
  { words: /increment|late|count-on|writes/, operators: ['move-statement', 'delete-statement', 'unwrap-call'] },
  {
    words: /unseen|unknown|missing|writes|stranger/,
    operators: ['default-entry', 'drop-write', 'membership-guard', 'delete-statement', 'constant-condition'],
  },
  {
    words: /empty|none|no-healthy|crash|fallback/,
    operators: ['answer-guard', 'guard-empty', 'constant-condition', 'negate-condition'],
  },
  {
    words: /stale|reset|shared|fresh|keeps|carry|drops/,
    operators: ['fresh-state', 'rebuild-state', 'delete-statement', 'constant-condition'],
  },
  // A print of what is not an answer (a start-up log line): taken out.
  { words: /stray|output/, operators: ['delete-statement'] },
  { words: /cap|off-by-one|limit|max|zero/, operators: ['flip-comparison', 'truthy-test', 'nudge-number'] },
  {
    words: /down|health|skip|unknown|unseen|fallback|picks/,
    operators: ['constant-condition', 'negate-condition', 'flip-comparison', 'delete-statement'],
  },
];

/** Operators cheap and likely everywhere, before the rest. */
const OPERATOR_COST: Record<OperatorName, number> = {
  'flip-comparison': 2,
  'swap-min-max': 2,
  'swap-logic': 3,
  'unwrap-call': 2,
  'keep-part': 3,
  floor: 2,
  'move-statement': 3,
  'delete-statement': 4,
  'constant-condition': 3,
  'negate-condition': 4,
  'guard-empty': 2,
  'rebuild-state': 2,
  'nudge-number': 5,
  'default-entry': 3,
  'tie-key': 2,
  'tie-callback': 2,
  'random-tie': 2,
  'answer-guard': 2,
  'fresh-state': 2,
  'membership-guard': 3,
  'floor-guard': 3,
  'drop-write': 3,
  'truthy-test': 3,
};

/** The operators that invert the mistake, most likely first. */
export function invertingOperators(mistake: string): OperatorName[] {
  const out: OperatorName[] = [];
  for (const rule of INVERTS)
    if (rule.words.test(mistake)) for (const op of rule.operators) if (!out.includes(op)) out.push(op);
  return out;
}

/** How far a node is from the located lines: 0 on them, the distance in lines near them, more outside. */
function distance(node: SyntaxNode, lines: readonly number[], named?: Span): number {
  // Inside the function the report names, at most 2 lines away (the located lines may be in a helper it calls).
  const inNamed = named && node.startLine >= named.startLine && node.endLine <= named.endLine ? 2 : Infinity;
  if (lines.length === 0) return Math.min(4, inNamed);
  let best = Infinity;
  for (const line of lines) {
    if (line >= node.startLine && line <= node.endLine) return node.endLine - node.startLine > 3 ? 1 : 0;
    best = Math.min(best, Math.abs(line - node.startLine), Math.abs(line - node.endLine));
  }
  return Math.min(inNamed, best <= 3 ? best : best <= 12 ? 4 + best / 4 : 8 + best / 20);
}

type Span = Pick<SyntaxNode, 'startLine' | 'endLine'>;
const FUNCTION_TYPES =
  /^(function_definition|function_declaration|method_definition|arrow_function|function_expression)$/;

/** The function (or method) that starts at a line. */
function functionAt(file: ParsedFile, line: number | undefined): Span | undefined {
  if (line === undefined) return undefined;
  for (const node of walk(file.root)) if (FUNCTION_TYPES.test(node.type) && node.startLine === line) return node;
  return undefined;
}

/** A proposal's cost, and the target (the mistake) it is cheapest for. */
function costOf(
  proposal: Proposal,
  targets: readonly RepairTarget[],
  named: readonly (Span | undefined)[],
): { cost: number; target: number } {
  let best = { cost: Infinity, target: 0 };
  for (const [i, target] of targets.entries()) {
    const rank = invertingOperators(target.mistake).indexOf(proposal.operator);
    const bonus = rank < 0 ? 0 : 2.5 - rank * 0.1;
    const cost = OPERATOR_COST[proposal.operator] - bonus + distance(proposal.at, target.lines, named[i]) * 1.5;
    if (cost < best.cost) best = { cost, target: i };
  }
  return { cost: best.cost + proposal.weight * 0.5, target: best.target };
}

/**
 * Each mistake's edits take turns: the n-th cheapest edit for a mistake is tried as if it cost `SHARE * n` more, so
 * a program with three mistakes has the cheapest edits for each in the first round, not only for the one whose
 * located lines hold the most cheap edits. With one mistake the order is the cost's.
 */
const SHARE = 0.25;

/** Every single edit the operators propose over the file, cheapest first, the same edit once. */
export function singleEdits(file: ParsedFile, targets: readonly RepairTarget[]): Candidate[] {
  const all: readonly RepairTarget[] = targets.length ? targets : [{ mistake: '', lines: [] }];
  const named = all.map((t) => functionAt(file, t.functionLine));
  const seen = new Set<string>();
  const out: Candidate[] = [];
  // The model's answers, for the mistakes an answer undoes (an empty pool, a fallback): not a backend's name.
  const answers = [
    ...new Set(
      all.flatMap((t) => (t.answer && invertingOperators(t.mistake).includes('answer-guard') ? [t.answer] : [])),
    ),
  ];
  const targetOf: number[] = [];
  for (const proposal of propose(file, () => true, answers)) {
    const key = JSON.stringify(proposal.edits);
    if (seen.has(key)) continue;
    seen.add(key);
    const { cost, target } = costOf(proposal, all, named);
    targetOf.push(target);
    out.push({ edits: proposal.edits, operators: [proposal.operator], description: proposal.description, cost });
  }
  // Stable: equal costs keep the file's order.
  const byCost = out.map((c, i) => ({ c, i })).sort((a, b) => a.c.cost - b.c.cost || a.i - b.i);
  const turns = new Map<number, number>();
  return byCost
    .map(({ c, i }, order) => {
      const turn = turns.get(targetOf[i]!) ?? 0;
      turns.set(targetOf[i]!, turn + 1);
      return { c, order, key: c.cost + SHARE * turn };
    })
    .sort((a, b) => a.key - b.key || a.order - b.order)
    .map(({ c }) => c);
}

/** Pairs of the cheapest edits (a compound mistake whose halves each change nothing alone), cheapest first. */
export function localPairs(singles: readonly Candidate[], count: number): Candidate[] {
  const top = singles.slice(0, count);
  const out: Candidate[] = [];
  for (let i = 0; i < top.length; i++)
    for (let j = i + 1; j < top.length; j++) {
      const pair = combine(top[i]!, top[j]!);
      if (pair) out.push(pair);
    }
  return out.sort((a, b) => a.cost - b.cost);
}

/** A candidate on top of another (a compound mistake): both edits, or undefined when they overlap. */
export function combine(base: Candidate, next: Candidate): Candidate | undefined {
  for (const a of base.edits)
    for (const b of next.edits)
      if (a.start < b.end && b.start < a.end) return undefined;
      else if (a.start === a.end && b.start === b.end && a.start === b.start) return undefined;
  return {
    edits: [...base.edits, ...next.edits],
    operators: [...base.operators, ...next.operators],
    description: `${base.description}; ${next.description}`,
    cost: base.cost + next.cost,
  };
}
