/**
 * Edit operators over a learner file's syntax tree: each proposes small edits that invert one kind of
 * mistake (a comparison flipped or made strict, min for max, a tie key dropped, a comparator's or a reduce's
 * tie turned, a random tie made fixed, a floor added, a statement moved, a guard for an empty pool), or generic
 * ones (a statement deleted, a condition made constant, an expression replaced by one of its parts). They only
 * propose: plan.ts orders them, the node side runs them.
 */
import type { Language } from '../pack/schema';
import { walkWithParent, type ParsedFile, type SyntaxNode } from './tree';
import { STATEMENT_PARENTS, context, type Context, type Proposal } from './proposal';
import { conditions, flipComparison, nudgeNumber, swapMinMax, truthyTest } from './comparisonOperators';
import { reservoirTie, rotationTie } from './fixedTieOperators';
import { floor, guardEmpty, keepPart, randomTie, tieKey, unwrapCall } from './expressionOperators';
import { deleteStatement, moveStatement } from './statementOperators';
import { defaultEntry, rebuildState } from './stateOperators';
import { comparatorTie, pickTie } from './callbackOperators';
import { answerGuard, otherAnswer, splitAnswer } from './answerOperators';
import { dropWrite } from './dropWriteOperators';
import { floorGuard, membershipGuard, missingGuard } from './guardOperators';
import { carryField, clearShared, freshState, freshValue, instanceAttribute } from './freshStateOperators';

export type { OperatorName, Proposal } from './proposal';

export const NODE_OPERATORS: ((node: SyntaxNode, ctx: Context, parent: SyntaxNode | null) => Proposal[])[] = [
  defaultEntry,
  tieKey,
  comparatorTie,
  pickTie,
  randomTie,
  rotationTie,
  reservoirTie,

  flipComparison,
  swapMinMax,
  unwrapCall,
  keepPart,
  floor,
  conditions,
  guardEmpty,
  rebuildState,
  nudgeNumber,
  moveStatement,
  deleteStatement,
  answerGuard,
  splitAnswer,
  otherAnswer,
  freshState,
  instanceAttribute,
  clearShared,
  freshValue,
  carryField,
  membershipGuard,
  floorGuard,
  missingGuard,
  dropWrite,
  truthyTest,
];

type NodeOperator = (typeof NODE_OPERATORS)[number];

/**
 * One operator's proposals at a node. An operator that fails on a shape it did not expect proposes nothing there:
 * the other operators' edits are still tried (test/unit/repairCorpus.test.ts runs them all over the corpus).
 */
function proposalsOf(operator: NodeOperator, node: SyntaxNode, ctx: Context, parent: SyntaxNode | null): Proposal[] {
  try {
    return operator(node, ctx, parent);
  } catch {
    return [];
  }
}

/** Every proposal for the nodes `inScope` accepts (by their lines), in tree order. */
export function propose(
  file: ParsedFile,
  inScope: (node: SyntaxNode) => boolean,
  answers: readonly string[] = [],
): Proposal[] {
  const ctx = context(file, answers);
  const out: Proposal[] = [];
  for (const { node, parent } of walkWithParent(file.root)) {
    const isBlock = STATEMENT_PARENTS.has(node.type);
    // A block is in scope through its statements; any other node by its own lines.
    if (!isBlock && !inScope(node)) continue;
    for (const operator of NODE_OPERATORS) {
      const proposals = proposalsOf(operator, node, ctx, parent);
      out.push(...(isBlock ? proposals.filter((p) => inScope(p.at)) : proposals));
    }
  }
  return out;
}

export type { Language };
