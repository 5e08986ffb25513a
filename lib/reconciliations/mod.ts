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
import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import { formatMoney } from "../money.ts";
import { pageAfter } from "../pagination.ts";
import type { ListQuery, Page } from "../schemas.ts";
import { nextDay, ORGANISATION_TIME_ZONE, startOfDay } from "../time_zone.ts";
import type { Reconciliation, ReconciliationProblem } from "./schemas.ts";
import { type Operation, parseStatement, type StatementDialect } from "./statement.ts";

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

function problemAt(
  operation: Operation,
  kind: ReconciliationProblem["kind"],
  order: OrderRecord | undefined,
  expectedAmount: number | null,
  message: string,
): ReconciliationProblem {
  return {
    line: operation.line,
    kind,
    orderId: operation.orderId,
    transactionId: operation.transactionId,
    paymentId: order?.payment_public_id ?? null,
    currency: operation.currency,
    amount: operation.amount,
    expectedAmount,
    message,
  };
}

/** What matching a statement's operations found, before the period's missing payments. */
interface Matching {
  matched: number;
  fees: Map<string, number>;
  payouts: Map<string, number>;
  problems: ReconciliationProblem[];
  /** Payments a purchase of the statement named. */
  seen: Set<number>;
}

async function matchOperations(
  ctx: OrgContext,
  source: string,
  operations: Operation[],
): Promise<Matching> {
  const orderIds = [
    ...new Set(
      operations.flatMap((op) =>
        (op.kind === "PURCHASE" || op.kind === "REFUND") && op.orderId ? [op.orderId] : []
      ),
    ),
  ];
  const orders = await findOrders(ctx.db, ctx.orgId, orderIds);
  const refunds = await succeededRefundsOf(
    ctx.db,
    [...new Set([...orders.values()].map((order) => order.payment_id))],
  );
  const result: Matching = {
    matched: 0,
    fees: new Map(),
    payouts: new Map(),
    problems: [],
    seen: new Set(),
  };
  const money = (amount: number, currency: string) => formatMoney(amount, currency);
  for (const op of operations) {
    add(result.fees, op.currency, op.commission);
    // Fees and payouts are the money that left: a fee returned or a payout cancelled comes back in.
    const out = op.back ? -op.amount : op.amount;
    if (op.kind === "COMMISSION") add(result.fees, op.currency, out);
    if (op.kind === "PAYOUT") add(result.payouts, op.currency, out);
    if (op.kind !== "PURCHASE" && op.kind !== "REFUND") continue;
    const order = op.orderId === null ? undefined : orders.get(op.orderId);
    if (order === undefined) {
      result.problems.push(problemAt(
        op,
        "unknown_order",
        undefined,
        null,
        op.orderId === null
          ? `${source} shows no order id here, so no Paystead payment can be matched.`
          : `No payment of this organisation has the order id '${op.orderId}'.`,
      ));
      continue;
    }
    if (op.kind === "PURCHASE") {
      // NOTE: a payment paid twice, or paid while Paystead holds it unpaid, is money the provider took
      // that Paystead did not sell: both count as an expected amount of 0.
      const expected = order.status === "SUCCEEDED" && !result.seen.has(order.payment_id) &&
          order.currency === op.currency
        ? order.amount
        : 0;
      result.seen.add(order.payment_id);
      if (expected === op.amount) {
        result.matched++;
        continue;
      }
      result.problems.push(problemAt(
        op,
        "amount_mismatch",
        order,
        expected,
        expected === 0
          ? `${source} took ${
            money(op.amount, op.currency)
          } for payment ${order.payment_public_id}, ` +
            `which Paystead holds as ${order.status}${
              order.status === "SUCCEEDED" ? " and already matched" : ""
            }.`
          : `${source} took ${money(op.amount, op.currency)} for payment ` +
            `${order.payment_public_id}, which was for ${money(order.amount, order.currency)}.`,
      ));
      continue;
    }
    const candidates = refunds.get(order.payment_id) ?? [];
    const index = candidates.findIndex((refund) =>
      refund.amount === op.amount && refund.currency === op.currency
    );
    if (index !== -1) {
      // Each refund matches one line of the statement only.
      candidates.splice(index, 1);
      result.matched++;
      continue;
    }
    const unmatched = candidates.filter((refund) => refund.currency === op.currency)
      .reduce((sum, refund) => sum + refund.amount, 0);
    result.problems.push(problemAt(
      op,
      "amount_mismatch",
      order,
      unmatched,
      `${source} refunded ${
        money(op.amount, op.currency)
      } of payment ${order.payment_public_id}; ` +
        `Paystead has no succeeded refund of that amount for it.`,
    ));
  }
  return result;
}

/** The payments that succeeded in the statement's days and that no purchase of it named. */
async function missingPayments(
  ctx: OrgContext,
  period: { from: string; to: string },
  seen: Set<number>,
): Promise<ReconciliationProblem[]> {
  const zone = ORGANISATION_TIME_ZONE;
  const range = { from: startOfDay(period.from, zone), to: startOfDay(nextDay(period.to), zone) };
  const problems: ReconciliationProblem[] = [];
  for (let afterId = 0;;) {
    const page = await succeededPaymentsPage(ctx.db, ctx.orgId, range, afterId, 500);
    for (const payment of page) {
      if (seen.has(payment.id)) continue;
      problems.push({
        line: null,
        kind: "not_in_statement",
        orderId: payment.order_id,
        transactionId: null,
        paymentId: payment.public_id,
        currency: payment.currency,
        amount: null,
        expectedAmount: payment.amount,
        message: `Payment ${payment.public_id} (${
          formatMoney(payment.amount, payment.currency)
        }) succeeded in the statement's period but is not in it.`,
      });
    }
    if (page.length < 500) return problems;
    afterId = page[page.length - 1].id;
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
 * Matches the provider's statement with the organisation's payments and refunds and keeps the
 * result: purchases by order id (the attempt id Paystead sent the provider), refunds with
 * refunds, commissions summed as fees and payouts as payouts (each net of those returned or
 * cancelled), and every succeeded payment of the statement's days that it lacks. A malformed
 * statement is a 400 and nothing is kept.
 */
export async function reconcile(ctx: OrgContext, statement: Uint8Array): Promise<Reconciliation> {
  const dialect = statementDialect(ctx);
  const parsed = await parseStatement(dialect, statement);
  const matching = await matchOperations(ctx, dialect.source, parsed.operations);
  const missing = await missingPayments(ctx, parsed, matching.seen);
  const row = await ctx.write((trx) =>
    insertReconciliation(trx, {
      public_id: newId("reconciliation"),
      org_id: ctx.orgId,
      period_from: parsed.from,
      period_to: parsed.to,
      operations: parsed.operations.length,
      matched: matching.matched,
      fees: JSON.stringify(totals(matching.fees)),
      payouts: JSON.stringify(totals(matching.payouts)),
      problems: JSON.stringify([...matching.problems, ...missing]),
      created_at: ctx.now(),
    })
  );
  return toReconciliation(row);
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
