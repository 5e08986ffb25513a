import type { SqlStatement } from "./libsql_dialect.ts";
import type { NewPayment } from "./payments.ts";
import type { EventRow, OfferRow } from "./schema.ts";

/** The request's Idempotency-Key with its answer, stored with the payment for a replay. */
interface AnsweredKey {
  key: string;
  fingerprint: string;
  lockedUntil: number;
  status: number;
  contentType: string;
  body: string;
  createdAt: number;
}

const PAYMENT_COLUMNS = [
  "public_id",
  "org_id",
  "offer_id",
  "status",
  "amount",
  "currency",
  "quantity",
  "amount_refunded",
  "customer_email",
  "customer_name",
  "success_url",
  "cancel_url",
  "failure_code",
  "metadata",
  "expires_at",
  "processing_deadline_at",
  "created_at",
  "updated_at",
  "locale",
  "invoice_company_name",
  "invoice_tax_id",
] as const satisfies readonly (keyof NewPayment)[];

// The offer as it was read: its rules were checked on that row, and any change bumps updated_at.
const INSERT_PAYMENT = `INSERT INTO payments (${PAYMENT_COLUMNS.join(", ")}) SELECT ${
  PAYMENT_COLUMNS.map(() => "?").join(", ")
} FROM offers WHERE id = ? AND org_id = ? AND updated_at = ?`;
const INSERT_PAYMENT_UNDER_KEY =
  `${INSERT_PAYMENT} AND NOT EXISTS (SELECT 1 FROM idempotency_keys WHERE org_id = ? AND key = ?)`;
const INSERT_EVENT = `INSERT INTO events (public_id, org_id, type, payload, created_at)
  SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM payments WHERE public_id = ?)`;
const INSERT_ANSWERED_KEY = `INSERT INTO idempotency_keys (org_id, key, fingerprint, status,
  locked_until, response_status, response_content_type, response_body, created_at)
  SELECT ?, ?, ?, 'COMPLETED', ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM payments WHERE public_id = ?)`;

/**
 * A payment, its event and (under an Idempotency-Key) the key with its answer, as statements
 * declared up front for `Store.writeStatements`. The payment is inserted only while the offer
 * is as it was read (the same `updated_at`) and the key is new; the event and key only if the
 * payment was. So the first statement's `rowsAffected` says whether all of it happened (1) or
 * none of it (0), in one round trip and no read in between.
 */
export function paymentCreateStatements(input: {
  payment: NewPayment;
  offer: Pick<OfferRow, "id" | "org_id" | "updated_at">;
  event: Omit<EventRow, "id">;
  key?: AnsweredKey;
}): SqlStatement[] {
  const { payment, offer, event, key } = input;
  const offerArgs = [offer.id, offer.org_id, offer.updated_at];
  const paymentArgs = [...PAYMENT_COLUMNS.map((column) => payment[column]), ...offerArgs];
  const statements: SqlStatement[] = [
    key
      ? { sql: INSERT_PAYMENT_UNDER_KEY, args: [...paymentArgs, payment.org_id, key.key] }
      : { sql: INSERT_PAYMENT, args: paymentArgs },
    {
      sql: INSERT_EVENT,
      args: [
        event.public_id,
        event.org_id,
        event.type,
        event.payload,
        event.created_at,
        payment.public_id,
      ],
    },
  ];
  if (key) {
    statements.push({
      sql: INSERT_ANSWERED_KEY,
      args: [
        payment.org_id,
        key.key,
        key.fingerprint,
        key.lockedUntil,
        key.status,
        key.contentType,
        key.body,
        key.createdAt,
        payment.public_id,
      ],
    });
  }
  return statements;
}
