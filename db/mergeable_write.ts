import type { ExecuteResult, SqlStatement } from "./libsql_dialect.ts";

/**
 * A kind of write declared up front whose writes from concurrent requests may share statements:
 * one multi-row statement per table for all of them instead of one each. A libSQL server parses
 * every statement it gets and prepares it anew; a create's three cost it more than the rows they
 * insert (`docs/performance.md`, stop 17).
 */
export interface MergeableWrite<I, T> {
  /** The statements writing every one of `inputs` (at least one), atomically together. */
  statements(inputs: readonly I[]): SqlStatement[];
  /** Each input's result, in the order of `inputs`, from what `statements(inputs)` returned. */
  results(inputs: readonly I[], results: readonly ExecuteResult[]): T[];
  /**
   * Inputs giving the same string never share statements (undefined: no constraint): a later
   * one must see what the earlier one wrote, as two Idempotency-Keys alike do.
   */
  conflict(input: I): string | undefined;
  /** Every write its own statements: a kind that cannot merge. */
  readonly alone?: boolean;
}

/** One write of a kind, and where its result goes. */
export interface MergeableItem<I, T> {
  kind: MergeableWrite<I, T>;
  input: I;
}

/** Writes of one kind sharing statements, and the items they stand for. */
export interface MergedGroup<I, T> {
  kind: MergeableWrite<I, T>;
  members: number[];
  statements: SqlStatement[];
}

/**
 * Merges `items` (in order): the writes of a kind share statements, at the place of the first of
 * them, in rounds where two writes conflict (the second round runs after the first). Each group
 * names the items it stands for by index.
 */
export function mergeItems(
  items: readonly MergeableItem<unknown, unknown>[],
): MergedGroup<unknown, unknown>[] {
  const rounds = new Map<
    MergeableWrite<unknown, unknown>,
    { members: number[]; taken: Set<string> }[]
  >();
  const order: { members: number[]; kind: MergeableWrite<unknown, unknown> }[] = [];
  items.forEach(({ kind, input }, index) => {
    let kindRounds = rounds.get(kind);
    if (!kindRounds) rounds.set(kind, kindRounds = []);
    const conflict = kind.conflict(input);
    let round = kind.alone
      ? undefined
      : kindRounds.find((round) => conflict === undefined || !round.taken.has(conflict));
    if (!round) {
      round = { members: [], taken: new Set() };
      kindRounds.push(round);
      order.push({ members: round.members, kind });
    }
    round.members.push(index);
    if (conflict !== undefined) round.taken.add(conflict);
  });
  return order.map(({ kind, members }) => ({
    kind,
    members,
    statements: kind.statements(members.map((index) => items[index].input)),
  }));
}

/** Writes declared as plain statements: never merged, their results as they came. */
export const STATEMENTS: MergeableWrite<readonly SqlStatement[], ExecuteResult[]> = {
  statements: (inputs) => inputs.flat(),
  results: (_inputs, results) => [[...results]],
  conflict: () => undefined,
  alone: true,
};
