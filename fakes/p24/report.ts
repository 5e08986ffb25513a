/**
 * The transaction report for reconciliation: `GET /api/v1/report/history?dateFrom=&dateTo=&type=`
 * (Report API, "History transaction": batches, transactions and refunds of a period of at most
 * 31 days, paged by a token: `GET /api/v1/report/history/{token}`). The fake pays out no
 * batches, so `batch` has no records.
 */
import type { P24Context, Reply } from "./context.ts";
import { type FakeTransaction, lookupStatus, p24Date } from "./state.ts";

/** Records on one page of the report. */
export const REPORT_PAGE_SIZE = 100;
const TYPES = ["batch", "transaction", "refund"] as const;
type RecordType = (typeof TYPES)[number];
const MAX_DAYS = 31;

interface Query {
  dateFrom: string;
  dateTo: string;
  type: RecordType | null;
  page: number;
}

/** Answers the first page for a query string's dateFrom, dateTo and type. */
export function history(
  ctx: P24Context,
  params: { dateFrom?: string; dateTo?: string; type?: string },
): Reply {
  const problems: Record<string, string[]> = {};
  for (const field of ["dateFrom", "dateTo"] as const) {
    if (!isDate(params[field])) problems[field] = ["Provided date is invalid"];
  }
  if (params.type !== undefined && !TYPES.includes(params.type as RecordType)) {
    problems.type = ["Provided type is unknown"];
  }
  if (
    Object.keys(problems).length === 0 &&
    (days(params.dateFrom!, params.dateTo!) < 0 ||
      days(params.dateFrom!, params.dateTo!) >= MAX_DAYS)
  ) {
    problems.dateTo = [`Max period length is ${MAX_DAYS} days`];
  }
  if (Object.keys(problems).length > 0) {
    return {
      status: 400,
      body: { error: "Invalid data provided", code: "400", validation: [problems] },
    };
  }
  return page(ctx, {
    dateFrom: params.dateFrom!,
    dateTo: params.dateTo!,
    type: (params.type as RecordType | undefined) ?? null,
    page: 0,
  });
}

/** Answers a next page by its token. */
export function historyPage(ctx: P24Context, token: string): Reply {
  const query = queryOf(token);
  if (query === null) {
    return {
      status: 400,
      body: {
        error: "Invalid data provided",
        code: "400",
        validation: [{ token: ["Provided token is invalid"] }],
      },
    };
  }
  return page(ctx, query);
}

function page(ctx: P24Context, query: Query): Reply {
  const records = recordsOf(ctx, query);
  const pageCount = Math.max(1, Math.ceil(records.length / REPORT_PAGE_SIZE));
  const slice = records.slice(query.page * REPORT_PAGE_SIZE, (query.page + 1) * REPORT_PAGE_SIZE);
  const groups = new Map<
    string,
    { type: string; amount: number; currency: string; details: unknown[] }
  >();
  for (const record of slice) {
    const key = `${record.type} ${record.currency}`;
    const group = groups.get(key) ??
      { type: record.type, amount: 0, currency: record.currency, details: [] };
    group.amount += record.amount;
    group.details.push(record.details);
    groups.set(key, group);
  }
  const next = query.page + 1 < pageCount ? tokenOf({ ...query, page: query.page + 1 }) : "";
  return {
    status: 200,
    body: {
      data: [...groups.values()],
      token: next,
      responseCode: 0,
      pageInformation: { recordsOnPage: slice.length, recordsAll: records.length, pageCount },
    },
  };
}

interface ReportRecord {
  type: RecordType;
  amount: number;
  currency: string;
  at: number;
  details: unknown;
}

function recordsOf(ctx: P24Context, query: Query): ReportRecord[] {
  const inPeriod = (at: number) => {
    const day = p24Date(at).slice(0, 10).replaceAll("-", "");
    return day >= query.dateFrom && day <= query.dateTo;
  };
  const records: ReportRecord[] = [];
  if (query.type === null || query.type === "transaction") {
    for (const t of ctx.state.transactions.values()) {
      if (!inPeriod(t.registeredAt)) continue;
      records.push({
        type: "transaction",
        amount: t.request.amount,
        currency: t.request.currency,
        at: t.registeredAt,
        details: transactionDetails(ctx, t),
      });
    }
  }
  if (query.type === null || query.type === "refund") {
    for (const refund of ctx.state.refunds) {
      if (!inPeriod(refund.createdAt)) continue;
      records.push({
        type: "refund",
        amount: refund.amount,
        currency: refund.currency,
        at: refund.createdAt,
        details: {
          refundId: refund.refundId,
          orderId: refund.orderId,
          requestId: refund.requestId,
          dateIn: p24Date(refund.createdAt),
          dateOut: p24Date(refund.status === 1 ? refund.decidedAt : null),
          status: refund.status,
          description: refund.description,
        },
      });
    }
  }
  return records.sort((a, b) => a.at - b.at);
}

/**
 * A transaction as `TransactionObject` lists it, its documented names kept, `ordrId` included:
 * status "0 – not paid, 1 – paid, 2 – paid and verified, 3 – payment returned".
 */
function transactionDetails(ctx: P24Context, t: FakeTransaction): Record<string, unknown> {
  const fee = t.paidAt === null ? 0 : feeOf(ctx, t.request.amount);
  return {
    settledAmount: t.paidAt === null ? 0 : t.request.amount - fee,
    ordrId: t.orderId,
    sessionId: t.request.sessionId,
    status: lookupStatus(ctx.state, t),
    date: p24Date(t.registeredAt),
    dateOfTransaction: p24Date(t.paidAt),
    dateOfVerification: p24Date(t.verifiedAt),
    clientEmail: t.request.email,
    accountChecksum: "",
    paymentMethod: t.methodId ?? 0,
    description: t.request.description,
    clientName: t.request.client ?? "",
    clientAddress: t.request.address ?? "",
    clientCity: t.request.city ?? "",
    clientZip: t.request.zip ?? "",
    statement: t.statement,
    fee,
  };
}

/** P24's commission on a paid amount, by the feeBasisPoints switch. */
export function feeOf(ctx: P24Context, amount: number): number {
  return Math.round(amount * ctx.switches().feeBasisPoints / 10_000);
}

function isDate(text: string | undefined): boolean {
  if (text === undefined || !/^\d{8}$/.test(text)) return false;
  const date = new Date(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) &&
    date.toISOString().slice(0, 10).replaceAll("-", "") === text;
}

function days(from: string, to: string): number {
  const at = (text: string) => Date.UTC(+text.slice(0, 4), +text.slice(4, 6) - 1, +text.slice(6));
  return (at(to) - at(from)) / 86_400_000;
}

function tokenOf(query: Query): string {
  return btoa(JSON.stringify(query)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

function queryOf(token: string): Query | null {
  try {
    const json = atob(token.replaceAll("-", "+").replaceAll("_", "/"));
    const query = JSON.parse(json) as Query;
    if (
      !isDate(query.dateFrom) || !isDate(query.dateTo) || !Number.isInteger(query.page) ||
      query.page < 0 || (query.type !== null && !TYPES.includes(query.type))
    ) {
      return null;
    }
    return query;
  } catch {
    return null;
  }
}
