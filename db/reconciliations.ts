import type { Kysely } from "kysely";
import type { EnvironmentSchema, NewReconciliation, ReconciliationRow } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

export type { ReconciliationRow };

/** A payment as reconciliation sees it, found by the order id (attempt id) the provider names. */
export interface OrderRecord {
  order_id: string;
  payment_id: number;
  payment_public_id: string;
  status: string;
  amount: number;
  currency: string;
}

/** A succeeded payment of a period, with the order id the provider would name. */
export interface SucceededPayment {
  id: number;
  public_id: string;
  amount: number;
  currency: string;
  order_id: string | null;
}

// SQLite takes at most 32766 parameters; a statement names far more orders than one IN holds.
const IN_CHUNK = 500;

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += IN_CHUNK) {
    out.push(values.slice(start, start + IN_CHUNK));
  }
  return out;
}

/** Inserts a reconciliation. */
export async function insertReconciliation(
  db: Db,
  values: NewReconciliation,
): Promise<ReconciliationRow> {
  return await db.insertInto("reconciliations").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

/** Finds an organisation's reconciliation by its public id. */
export function findReconciliation(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<ReconciliationRow | undefined> {
  return db.selectFrom("reconciliations").selectAll().where("org_id", "=", orgId)
    .where("public_id", "=", publicId).executeTakeFirst();
}

/** Lists an organisation's reconciliations newest first. */
export function listReconciliationRows(
  db: Db,
  orgId: number,
  filter: { beforeId?: number; limit: number },
): Promise<ReconciliationRow[]> {
  let query = db.selectFrom("reconciliations").selectAll().where("org_id", "=", orgId);
  if (filter.beforeId !== undefined) query = query.where("id", "<", filter.beforeId);
  return query.orderBy("id", "desc").limit(filter.limit).execute();
}

/** The organisation's payments whose attempts have these ids (another's are not found). */
export async function findOrders(
  db: Db,
  orgId: number,
  orderIds: string[],
): Promise<Map<string, OrderRecord>> {
  const found = new Map<string, OrderRecord>();
  for (const chunk of chunks(orderIds)) {
    const rows = await db.selectFrom("payment_attempts")
      .innerJoin("payments", "payments.id", "payment_attempts.payment_id")
      .select([
        "payment_attempts.public_id as order_id",
        "payments.id as payment_id",
        "payments.public_id as payment_public_id",
        "payments.status",
        "payments.amount",
        "payments.currency",
      ])
      .where("payment_attempts.org_id", "=", orgId)
      .where("payment_attempts.public_id", "in", chunk)
      .execute();
    for (const row of rows) found.set(row.order_id, row);
  }
  return found;
}

/** The succeeded refunds of these payments, oldest first, by payment. */
export async function succeededRefundsOf(
  db: Db,
  paymentIds: number[],
): Promise<Map<number, { amount: number; currency: string }[]>> {
  const found = new Map<number, { amount: number; currency: string }[]>();
  for (const chunk of chunks(paymentIds)) {
    const rows = await db.selectFrom("refunds")
      .select(["payment_id", "amount", "currency"])
      .where("payment_id", "in", chunk).where("status", "=", "SUCCEEDED")
      .orderBy("id").execute();
    for (const row of rows) {
      const list = found.get(row.payment_id) ?? [];
      list.push({ amount: row.amount, currency: row.currency });
      found.set(row.payment_id, list);
    }
  }
  return found;
}

/** A page of the organisation's payments that succeeded in `[from, to)`, by id after `afterId`. */
export function succeededPaymentsPage(
  db: Db,
  orgId: number,
  period: { from: number; to: number },
  afterId: number,
  limit: number,
): Promise<SucceededPayment[]> {
  return db.selectFrom("payments")
    .select((eb) => [
      "payments.id",
      "payments.public_id",
      "payments.amount",
      "payments.currency",
      eb.selectFrom("payment_attempts").select("payment_attempts.public_id")
        .whereRef("payment_attempts.payment_id", "=", "payments.id")
        .where("payment_attempts.status", "=", "SUCCEEDED").limit(1).as("order_id"),
    ])
    .where("payments.org_id", "=", orgId)
    .where("payments.status", "=", "SUCCEEDED")
    .where("payments.succeeded_at", ">=", period.from)
    .where("payments.succeeded_at", "<", period.to)
    .where("payments.id", ">", afterId)
    .orderBy("payments.id").limit(limit).execute();
}
