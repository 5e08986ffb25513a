import type { Kysely } from "kysely";
import type { EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** Which rows an export reads: an organisation's, created in `[from, to)`, maybe of one status. */
export interface ExportFilter {
  orgId: number;
  from: number;
  to: number;
  status?: string;
}

/** Where the previous page of an export stopped: its last row's creation time and id. */
export interface ExportCursor {
  createdAt: number;
  id: number;
}

/** A payment as the payments export reads it. */
export interface PaymentExportRow {
  id: number;
  created_at: number;
  public_id: string;
  /** The id the provider's statement names: the public id of the payment's latest attempt. */
  provider_order_id: string | null;
  status: string;
  qr_id: string;
  offer_name: string;
  quantity: number;
  amount: number;
  currency: string;
  amount_refunded: number;
  customer_email: string | null;
  /** The invoice the customer asked for, if any. */
  invoice_company_name: string | null;
  invoice_tax_id: string | null;
  failure_code: string | null;
  succeeded_at: number | null;
  payment_method: string | null;
  bank: string | null;
}

/** A refund as the refunds export reads it. */
export interface RefundExportRow {
  id: number;
  created_at: number;
  public_id: string;
  payment_public_id: string;
  provider_ref: string | null;
  status: string;
  amount: number;
  currency: string;
  reason: string | null;
}

/**
 * One page of payments oldest first, after `cursor`: keyset pagination on (created_at, id), so
 * each page is an index range however far into the export it is.
 */
export function paymentExportPage(
  db: Db,
  filter: ExportFilter,
  cursor: ExportCursor | null,
  limit: number,
): Promise<PaymentExportRow[]> {
  let query = db.selectFrom("payments")
    .innerJoin("offers", "offers.id", "payments.offer_id")
    .select((eb) => [
      "payments.id",
      "payments.created_at",
      "payments.public_id",
      eb.selectFrom("payment_attempts").select("payment_attempts.public_id")
        .whereRef("payment_attempts.payment_id", "=", "payments.id")
        .orderBy("payment_attempts.id", "desc").limit(1).as("provider_order_id"),
      "payments.status",
      "offers.public_id as qr_id",
      "offers.name as offer_name",
      "payments.quantity",
      "payments.amount",
      "payments.currency",
      "payments.amount_refunded",
      "payments.customer_email",
      "payments.invoice_company_name",
      "payments.invoice_tax_id",
      "payments.failure_code",
      "payments.succeeded_at",
      "payments.payment_method",
      "payments.bank",
    ])
    .where("payments.org_id", "=", filter.orgId)
    .where("payments.created_at", ">=", filter.from)
    .where("payments.created_at", "<", filter.to);
  if (filter.status !== undefined) query = query.where("payments.status", "=", filter.status);
  if (cursor !== null) {
    // A row value, so SQLite reads the index from the cursor on instead of filtering an OR.
    query = query.where((eb) =>
      eb(
        eb.refTuple("payments.created_at", "payments.id"),
        ">",
        eb.tuple(cursor.createdAt, cursor.id),
      )
    );
  }
  return query.orderBy("payments.created_at").orderBy("payments.id").limit(limit).execute();
}

/** One page of refunds oldest first, after `cursor` (see paymentExportPage). */
export function refundExportPage(
  db: Db,
  filter: ExportFilter,
  cursor: ExportCursor | null,
  limit: number,
): Promise<RefundExportRow[]> {
  let query = db.selectFrom("refunds")
    .innerJoin("payments", "payments.id", "refunds.payment_id")
    .select([
      "refunds.id",
      "refunds.created_at",
      "refunds.public_id",
      "payments.public_id as payment_public_id",
      "refunds.provider_ref",
      "refunds.status",
      "refunds.amount",
      "refunds.currency",
      "refunds.reason",
    ])
    .where("refunds.org_id", "=", filter.orgId)
    .where("refunds.created_at", ">=", filter.from)
    .where("refunds.created_at", "<", filter.to);
  if (filter.status !== undefined) query = query.where("refunds.status", "=", filter.status);
  if (cursor !== null) {
    // A row value, so SQLite reads the index from the cursor on instead of filtering an OR.
    query = query.where((eb) =>
      eb(
        eb.refTuple("refunds.created_at", "refunds.id"),
        ">",
        eb.tuple(cursor.createdAt, cursor.id),
      )
    );
  }
  return query.orderBy("refunds.created_at").orderBy("refunds.id").limit(limit).execute();
}
