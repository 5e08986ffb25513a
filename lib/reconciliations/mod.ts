import {
  findOrders,
  findReconciliation,
  insertReconciliation,
  listReconciliationRows,
  type OrderRecord,
  type ReconciliationRow,
  succeededPaymentsPage,
  succeededRefundsOf,
} from "../../db/reconciliations.ts";
import { toIso } from "../clock.ts";
import { nextTurn } from "../../db/group_commit.ts";
import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import { formatMoney } from "../money.ts";
import { pageAfter } from "../pagination.ts";
import type { ListQuery, Page } from "../schemas.ts";
import { nextDay, ORGANISATION_TIME_ZONE, startOfDay } from "../time_zone.ts";
import type { Reconciliation, ReconciliationProblem } from "./schemas.ts";
import { type Operation, readStatement, type StatementDialect } from "./statement.ts";

type Total = { amount: number; currency: string };

/** The API form of a stored reconciliation. */
export function toReconciliation(row: ReconciliationRow): Reconciliation {
  return {
    reconciliationId: row.public_id,
    from: row.period_from,
    to: row.period_to,
    operations: row.operations,
    matched: row.matched,
    fees: JSON.parse(row.fees),
    payouts: JSON.parse(row.payouts),
    problems: JSON.parse(row.problems),
    problemCounts: JSON.parse(row.problem_counts),
    problemsTruncated: row.problems_truncated === 1,
    createdAt: toIso(row.created_at),
  };
}

function totals(sums: Map<string, number>): Total[] {
  return [...sums].filter(([, amount]) => amount !== 0).sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({ amount, currency }));
}

function add(sums: Map<string, number>, currency: string, amount: number): void {
  if (amount !== 0) sums.set(currency, (sums.get(currency) ?? 0) + amount);
}

/** How many problems a reconciliation keeps and shows; the rest are only counted. */
export const KEPT_PROBLEMS = 100;
/** How many statements a process reconciles at once: each holds a batch of its operations. */
export const RECONCILIATION_SLOTS = 2;

type ProblemKind = ReconciliationProblem["kind"];

/** The problems found: each counted by kind, the first `KEPT_PROBLEMS` kept whole. */
class Problems {
  readonly counts: Record<ProblemKind, number> = {
    unknown_order: 0,
    amount_mismatch: 0,
    not_in_statement: 0,
  };
  readonly kept: ReconciliationProblem[] = [];

  /** Counts a problem of `kind`; `describe` is called only for one that is kept. */
  add(kind: ProblemKind, describe: () => Omit<ReconciliationProblem, "kind">): void {
    this.counts[kind]++;
    if (this.kept.length < KEPT_PROBLEMS) this.kept.push({ kind, ...describe() });
  }

  get truncated(): boolean {
    return Object.values(this.counts).reduce((sum, count) => sum + count, 0) > this.kept.length;
  }
}

function problemAt(
  operation: Operation,
  order: OrderRecord | undefined,
  expectedAmount: number | null,
  message: string,
): Omit<ReconciliationProblem, "kind"> {
  return {
    line: operation.line,
    orderId: operation.orderId,
    transactionId: operation.transactionId,
    paymentId: order?.payment_public_id ?? null,
    currency: operation.currency,
    amount: operation.amount,
    expectedAmount,
    message,
  };
}

/**
 * Matches a statement's operations batch by batch, keeping across batches only what later lines
 * need: the payments a purchase already named and the refunds not yet matched.
 */
class StatementMatcher {
  matched = 0;
  operations = 0;
  from: string | null = null;
  to: string | null = null;
  readonly fees = new Map<string, number>();
  readonly payouts = new Map<string, number>();
  readonly problems = new Problems();
  /** Payments a purchase of the statement named. */
  readonly seen = new Set<number>();
  /** The succeeded refunds of payments a refund line named, less those matched so far. */
  readonly #refunds = new Map<number, { amount: number; currency: string }[]>();

  constructor(readonly ctx: OrgContext, readonly source: string) {}

  async match(operations: Operation[]): Promise<void> {
    const orderIds = [
      ...new Set(
        operations.flatMap((op) =>
          (op.kind === "PURCHASE" || op.kind === "REFUND") && op.orderId ? [op.orderId] : []
        ),
      ),
    ];
    const orders = orderIds.length === 0
      ? new Map<string, OrderRecord>()
      : await findOrders(this.ctx.db, this.ctx.orgId, orderIds);
    const refunded = [
      ...new Set(
        operations.flatMap((op) => {
          const order = op.kind === "REFUND" && op.orderId ? orders.get(op.orderId) : undefined;
          return order && !this.#refunds.has(order.payment_id) ? [order.payment_id] : [];
        }),
      ),
    ];
    if (refunded.length > 0) {
      const found = await succeededRefundsOf(this.ctx.db, refunded);
      for (const paymentId of refunded) this.#refunds.set(paymentId, found.get(paymentId) ?? []);
    }
    for (const op of operations) this.#matchOne(op, orders);
  }

  #matchOne(op: Operation, orders: Map<string, OrderRecord>): void {
    this.operations++;
    if (this.from === null || op.day < this.from) this.from = op.day;
    if (this.to === null || op.day > this.to) this.to = op.day;
    add(this.fees, op.currency, op.commission);
    // Fees and payouts are the money that left: a fee returned or a payout cancelled comes back in.
    const out = op.back ? -op.amount : op.amount;
    if (op.kind === "COMMISSION") add(this.fees, op.currency, out);
    if (op.kind === "PAYOUT") add(this.payouts, op.currency, out);
    if (op.kind !== "PURCHASE" && op.kind !== "REFUND") return;
    const source = this.source;
    const order = op.orderId === null ? undefined : orders.get(op.orderId);
    if (order === undefined) {
      this.problems.add("unknown_order", () =>
        problemAt(
          op,
          undefined,
          null,
          op.orderId === null
            ? `${source} shows no order id here, so no Paystead payment can be matched.`
            : `No payment of this organisation has the order id '${op.orderId}'.`,
        ));
      return;
    }
    if (op.kind === "PURCHASE") {
      // NOTE: a payment paid twice, or paid while Paystead holds it unpaid, is money the provider took
      // that Paystead did not sell: both count as an expected amount of 0.
      const expected = order.status === "SUCCEEDED" && !this.seen.has(order.payment_id) &&
          order.currency === op.currency
        ? order.amount
        : 0;
      this.seen.add(order.payment_id);
      if (expected === op.amount) {
        this.matched++;
        return;
      }
      this.problems.add("amount_mismatch", () =>
        problemAt(
          op,
          order,
          expected,
          expected === 0
            ? `${source} took ${
              formatMoney(op.amount, op.currency)
            } for payment ${order.payment_public_id}, ` +
              `which Paystead holds as ${order.status}${
                order.status === "SUCCEEDED" ? " and already matched" : ""
              }.`
            : `${source} took ${formatMoney(op.amount, op.currency)} for payment ` +
              `${order.payment_public_id}, which was for ${
                formatMoney(order.amount, order.currency)
              }.`,
        ));
      return;
    }
    const candidates = this.#refunds.get(order.payment_id) ?? [];
    const index = candidates.findIndex((refund) =>
      refund.amount === op.amount && refund.currency === op.currency
    );
    if (index !== -1) {
      // Each refund matches one line of the statement only.
      candidates.splice(index, 1);
      this.matched++;
      return;
    }
    const unmatched = candidates.filter((refund) => refund.currency === op.currency)
      .reduce((sum, refund) => sum + refund.amount, 0);
    this.problems.add("amount_mismatch", () =>
      problemAt(
        op,
        order,
        unmatched,
        `${source} refunded ${
          formatMoney(op.amount, op.currency)
        } of payment ${order.payment_public_id}; ` +
          `Paystead has no succeeded refund of that amount for it.`,
      ));
  }

  /** Adds the payments that succeeded in the statement's days and that no purchase named. */
  async addMissingPayments(): Promise<void> {
    const zone = ORGANISATION_TIME_ZONE;
    const range = {
      from: startOfDay(this.from!, zone),
      to: startOfDay(nextDay(this.to!), zone),
    };
    for (let afterId = 0;;) {
      const page = await succeededPaymentsPage(this.ctx.db, this.ctx.orgId, range, afterId, 500);
      for (const payment of page) {
        if (this.seen.has(payment.id)) continue;
        this.problems.add("not_in_statement", () => ({
          line: null,
          orderId: payment.order_id,
          transactionId: null,
          paymentId: payment.public_id,
          currency: payment.currency,
          amount: null,
          expectedAmount: payment.amount,
          message: `Payment ${payment.public_id} (${
            formatMoney(payment.amount, payment.currency)
          }) succeeded in the statement's period but is not in it.`,
        }));
      }
      if (page.length < 500) return;
      afterId = page[page.length - 1].id;
    }
  }
}

/** How the configured provider's statements read; 409 when it has none to reconcile. */
export function statementDialect(ctx: OrgContext): StatementDialect {
  const { provider } = ctx.services;
  if (provider.statements === null) {
    throw new ApiError(
      "state_conflict",
      `${provider.status.displayName} has no statements for Paystead to reconcile.`,
    );
  }
  return provider.statements;
}

/**
 * Matches the provider's statement, read as it arrives from `body`, with the organisation's
 * payments and refunds and keeps the result: purchases by order id (the attempt id Paystead sent
 * the provider), refunds with refunds, commissions summed as fees and payouts as payouts (each net
 * of those returned or cancelled), and every succeeded payment of the statement's days that it
 * lacks. Problems are counted by kind and the first 100 kept. A malformed statement is a 400 and
 * nothing is kept; a third statement while two are being reconciled is a 429.
 */
export async function reconcile(
  ctx: OrgContext,
  body: AsyncIterable<Uint8Array>,
): Promise<Reconciliation> {
  const dialect = statementDialect(ctx);
  const release = ctx.services.reconciliationSlots.take();
  if (release === null) {
    throw new ApiError(
      "rate_limited",
      "Two statements are being reconciled right now; send this one again in a few seconds.",
      { headers: { "Retry-After": "5" } },
    );
  }
  try {
    const matcher = new StatementMatcher(ctx, dialect.source);
    for await (const operations of readStatement(dialect, body)) {
      await matcher.match(operations);
      // NOTE: a statement already received and local reads resolve without a turn of the event
      // loop: without this, 200,000 lines would hold every other request for seconds.
      await nextTurn();
    }
    await matcher.addMissingPayments();
    const { problems } = matcher;
    const row = await ctx.write((trx) =>
      insertReconciliation(trx, {
        public_id: newId("reconciliation"),
        org_id: ctx.orgId,
        period_from: matcher.from!,
        period_to: matcher.to!,
        operations: matcher.operations,
        matched: matcher.matched,
        fees: JSON.stringify(totals(matcher.fees)),
        payouts: JSON.stringify(totals(matcher.payouts)),
        problems: JSON.stringify(problems.kept),
        problem_counts: JSON.stringify(problems.counts),
        problems_truncated: problems.truncated ? 1 : 0,
        created_at: ctx.now(),
      })
    );
    return toReconciliation(row);
  } finally {
    release();
  }
}

/** The organisation's reconciliations, newest first. */
export function listReconciliations(
  ctx: OrgContext,
  query: ListQuery,
): Promise<Page<ReconciliationRow>> {
  return pageAfter(
    query,
    (publicId) => findReconciliation(ctx.db, ctx.orgId, publicId),
    (beforeId, limit) => listReconciliationRows(ctx.db, ctx.orgId, { beforeId, limit }),
  );
}
