import type { SqlStatement } from "./libsql_dialect.ts";
import type { MergeableWrite } from "./mergeable_write.ts";
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
  "payment_methods",
] as const satisfies readonly (keyof NewPayment)[];

/** A create's write: a payment, its event and (under an Idempotency-Key) the key and its answer. */
export interface PaymentCreate {
  payment: NewPayment;
  offer: Pick<OfferRow, "id" | "org_id" | "updated_at">;
  event: Omit<EventRow, "id">;
  key?: AnsweredKey;
}

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
export function paymentCreateStatements(create: PaymentCreate): SqlStatement[] {
  const { payment, offer, key } = create;
  const paymentArgs = [...paymentValues(create), offer.id, offer.org_id, offer.updated_at];
  const statements: SqlStatement[] = [
    key
      ? { sql: INSERT_PAYMENT_UNDER_KEY, args: [...paymentArgs, payment.org_id, key.key] }
      : { sql: INSERT_PAYMENT, args: paymentArgs },
    { sql: INSERT_EVENT, args: eventValues(create) },
  ];
  if (key) statements.push({ sql: INSERT_ANSWERED_KEY, args: keyValues(create, key) });
  return statements;
}

/** A create's payment row: its columns' values, in PAYMENT_COLUMNS' order. */
function paymentValues({ payment }: PaymentCreate): unknown[] {
  return PAYMENT_COLUMNS.map((column) => payment[column]);
}

/** A create's event row (EVENT_COLUMNS), then its payment's public id, which it goes in with. */
function eventValues({ event, payment }: PaymentCreate): unknown[] {
  return [...EVENT_COLUMNS.map((column) => event[column]), payment.public_id];
}

/** A create's key row (KEY_COLUMNS), then its payment's public id, which it goes in with. */
function keyValues({ payment }: PaymentCreate, key: AnsweredKey): unknown[] {
  return [
    payment.org_id,
    key.key,
    key.fingerprint,
    key.lockedUntil,
    key.status,
    key.contentType,
    key.body,
    key.createdAt,
    payment.public_id,
  ];
}

/** `(?, ?), (?, ?)`: the placeholders of `rows` rows of `columns` values. */
function valueRows(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => "?").join(", ")})`;
  return Array.from({ length: rows }, () => row).join(", ");
}

/** `v.column1, ...`: the first `count` columns of a VALUES list named v. */
function valueColumns(count: number): string {
  return Array.from({ length: count }, (_, index) => `v.column${index + 1}`).join(", ");
}

/** Per payment row: its columns, then the offer as read (id, org_id, updated_at) and the key. */
const PAYMENT_ROW = PAYMENT_COLUMNS.length + 4;
const OFFER_ID = PAYMENT_COLUMNS.length + 1;
const ORG_ID = PAYMENT_COLUMNS.indexOf("org_id") + 1;

// The multi-row forms of the statements above, for creates sharing them.
// NOTE: VALUES is the only table in FROM, so rows go in in the order given.
function insertPayments(rows: number): string {
  const values = valueRows(rows, PAYMENT_ROW);
  const offer = (at: number) => `v.column${OFFER_ID + at}`;
  return `INSERT INTO payments (${PAYMENT_COLUMNS.join(", ")})
    SELECT ${valueColumns(PAYMENT_COLUMNS.length)} FROM (VALUES ${values}) AS v
    WHERE EXISTS (SELECT 1 FROM offers AS o
        WHERE o.id = ${offer(0)} AND o.org_id = ${offer(1)} AND o.updated_at = ${offer(2)})
      AND NOT EXISTS (SELECT 1 FROM idempotency_keys AS k
        WHERE k.org_id = v.column${ORG_ID} AND k.key = v.column${PAYMENT_ROW})
    RETURNING id, public_id`;
}

const EVENT_COLUMNS = ["public_id", "org_id", "type", "payload", "created_at"] as const;

/**
 * Rows given as `columns` values and, last, their payment's public id, each inserted only if its
 * payment was; `fixed` columns take the same SQL value in every row.
 */
function insertWithPayment(
  table: string,
  columns: readonly string[],
  rows: number,
  fixed: Record<string, string> = {},
): string {
  const names = [...columns, ...Object.keys(fixed)].join(", ");
  const values = [valueColumns(columns.length), ...Object.values(fixed)].join(", ");
  return `INSERT INTO ${table} (${names})
    SELECT ${values} FROM (VALUES ${valueRows(rows, columns.length + 1)}) AS v
    WHERE EXISTS (SELECT 1 FROM payments AS p WHERE p.public_id = v.column${columns.length + 1})`;
}

const KEY_COLUMNS = [
  "org_id",
  "key",
  "fingerprint",
  "locked_until",
  "response_status",
  "response_content_type",
  "response_body",
  "created_at",
] as const;

/**
 * Creates as one write: a create's result is its payment's id, or null where nothing of it
 * happened (see paymentCreateStatements). A lone create runs those statements; concurrent
 * creates share multi-row ones under the same conditions, row by row (`MergeableWrite`), those
 * under one Idempotency-Key in turn: the second then finds the key.
 */
export const PAYMENT_CREATE: MergeableWrite<PaymentCreate, number | null> = {
  statements(creates) {
    if (creates.length === 1) return paymentCreateStatements(creates[0]);
    const keyed = creates.filter((create) => create.key !== undefined);
    const statements: SqlStatement[] = [
      {
        sql: insertPayments(creates.length),
        args: creates.flatMap((create) => [
          ...paymentValues(create),
          create.offer.id,
          create.offer.org_id,
          create.offer.updated_at,
          create.key?.key ?? null,
        ]),
      },
      {
        sql: insertWithPayment("events", EVENT_COLUMNS, creates.length),
        args: creates.flatMap(eventValues),
      },
    ];
    if (keyed.length > 0) {
      statements.push({
        sql: insertWithPayment("idempotency_keys", KEY_COLUMNS, keyed.length, {
          status: "'COMPLETED'",
        }),
        args: keyed.flatMap((create) => keyValues(create, create.key!)),
      });
    }
    return statements;
  },
  results(creates, [inserted]) {
    if (creates.length === 1) {
      return [inserted.rowsAffected === 1 ? Number(inserted.lastInsertRowid) : null];
    }
    const ids = new Map(inserted.rows.map((row) => [row.public_id as string, Number(row.id)]));
    return creates.map(({ payment }) => ids.get(payment.public_id) ?? null);
  },
  conflict: ({ payment, key }) => key && `${payment.org_id}\n${key.key}`,
};
