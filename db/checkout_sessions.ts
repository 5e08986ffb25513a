import { type Kysely, sql, type Updateable } from "kysely";
import { noOpenAttempt } from "./payment_attempts.ts";
import { clockOffsetOf, maxClockOffset } from "./sandbox_clocks.ts";
import { nextVersion } from "./versions.ts";
import type {
  CheckoutSessionRow,
  CheckoutSessionsTable,
  EnvironmentSchema,
  NewCheckoutSession,
} from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/**
 * A session row with what its resource and pages show: the offer's `qrId`, name and description,
 * and the public id, status and failure code of its latest payment attempt.
 */
export type CheckoutSessionRecord = CheckoutSessionRow & {
  qr_id: string;
  offer_name: string;
  offer_description: string | null;
  payment_public_id: string | null;
  payment_status: string | null;
  payment_failure_code: string | null;
  payment_processing_at: number | null;
  payment_customer_email: string | null;
  offer_payment_methods: string | null;
};

function selectSessions(db: Db) {
  return db.selectFrom("checkout_sessions")
    .innerJoin("offers", "offers.id", "checkout_sessions.offer_id")
    .leftJoin("payments", "payments.id", "checkout_sessions.payment_id")
    .selectAll("checkout_sessions")
    .select([
      "offers.public_id as qr_id",
      "offers.name as offer_name",
      "offers.description as offer_description",
      "payments.public_id as payment_public_id",
      "payments.status as payment_status",
      "payments.failure_code as payment_failure_code",
      "payments.processing_at as payment_processing_at",
      "payments.customer_email as payment_customer_email",
      "offers.payment_methods as offer_payment_methods",
    ]);
}

/** Inserts a checkout session. */
export function insertCheckoutSession(
  db: Db,
  values: NewCheckoutSession,
): Promise<CheckoutSessionRow> {
  return db.insertInto("checkout_sessions").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

/** Finds an organisation's session by its public id. */
export function findCheckoutSession(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<CheckoutSessionRecord | undefined> {
  return selectSessions(db).where("checkout_sessions.org_id", "=", orgId)
    .where("checkout_sessions.public_id", "=", publicId).executeTakeFirst();
}

/** Finds a session by public id in any organisation (the public checkout page). */
export function findCheckoutSessionByPublicId(
  db: Db,
  publicId: string,
): Promise<CheckoutSessionRecord | undefined> {
  return selectSessions(db).where("checkout_sessions.public_id", "=", publicId)
    .executeTakeFirst();
}

/** Finds a session by its row id. */
export function findCheckoutSessionById(
  db: Db,
  id: number,
): Promise<CheckoutSessionRecord | undefined> {
  return selectSessions(db).where("checkout_sessions.id", "=", id).executeTakeFirst();
}

/** Finds the session whose latest payment attempt is the payment with row id `paymentId`. */
export function findCheckoutSessionByPaymentId(
  db: Db,
  paymentId: number,
): Promise<CheckoutSessionRecord | undefined> {
  return selectSessions(db).where("checkout_sessions.payment_id", "=", paymentId)
    .executeTakeFirst();
}

/**
 * Moves a session from `from` to `to` only if it is still in `from` (compare-and-set).
 * Returns the updated row, or undefined if another change got there first.
 */
export function transitionCheckoutSession(
  db: Db,
  id: number,
  from: string,
  to: string,
  changes: Updateable<CheckoutSessionsTable>,
): Promise<CheckoutSessionRow | undefined> {
  return db.updateTable("checkout_sessions").set({ ...changes, status: to, version: nextVersion })
    .where("id", "=", id).where("status", "=", from)
    .returningAll().executeTakeFirst();
}

/**
 * Makes `paymentId` the session's latest attempt if the session is still open and its latest
 * attempt is still `previousPaymentId` (compare-and-set). Returns whether it did.
 */
export async function setCheckoutSessionPayment(
  db: Db,
  id: number,
  previousPaymentId: number | null,
  paymentId: number,
  now: number,
): Promise<boolean> {
  const result = await db.updateTable("checkout_sessions")
    .set({ payment_id: paymentId, updated_at: now, version: nextVersion })
    .where("id", "=", id).where("status", "=", "OPEN")
    .where(sql<boolean>`payment_id IS ${previousPaymentId}`)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** A session past its expiry, with its organisation's sandbox clock offset. */
type DueCheckoutSession = CheckoutSessionRecord & { clock_offset: number };

// NOTE: expiries are in the organisation's time, which its sandbox clock may move ahead of the
// system time `now` the jobs run on: a session is due when `expires_at - offset <= now`.
const sessionClockOffset = clockOffsetOf("checkout_sessions.org_id");
const systemExpiry = sql<number>`checkout_sessions.expires_at - ${sessionClockOffset}`;

/** Open sessions at or past their expiry whose latest attempt is not still processing. */
export function findDueCheckoutSessions(
  db: Db,
  now: number,
  limit: number,
): Promise<DueCheckoutSession[]> {
  return selectSessions(db).select(sessionClockOffset.as("clock_offset"))
    .where("checkout_sessions.status", "=", "OPEN")
    .where("checkout_sessions.expires_at", "<=", sql<number>`${now} + ${maxClockOffset()}`)
    .where(systemExpiry, "<=", now)
    .where((eb) =>
      eb.or([eb("payments.status", "is", null), eb("payments.status", "!=", "PROCESSING")])
    )
    .where(noOpenAttempt("checkout_sessions.payment_id"))
    .orderBy(systemExpiry).limit(limit).execute();
}

/**
 * The earliest expiry (system time) among open sessions whose latest attempt is not processing;
 * a session with a processing attempt is expired when that attempt ends (see the payment hook).
 */
export async function nextCheckoutSessionExpiry(db: Db): Promise<number | null> {
  const row = await db.selectFrom("checkout_sessions")
    .leftJoin("payments", "payments.id", "checkout_sessions.payment_id")
    .where("checkout_sessions.status", "=", "OPEN")
    .where((eb) =>
      eb.or([eb("payments.status", "is", null), eb("payments.status", "!=", "PROCESSING")])
    )
    .where(noOpenAttempt("checkout_sessions.payment_id"))
    .select((eb) => eb.fn.min<number>(systemExpiry).as("at"))
    .executeTakeFirst();
  return typeof row?.at === "number" ? row.at : null;
}

/** Lists an organisation's sessions newest first, optionally in one status, after a row id. */
export function listCheckoutSessions(
  db: Db,
  orgId: number,
  filter: { status?: string; beforeId?: number; limit: number },
): Promise<CheckoutSessionRecord[]> {
  let query = selectSessions(db).where("checkout_sessions.org_id", "=", orgId);
  if (filter.status !== undefined) {
    query = query.where("checkout_sessions.status", "=", filter.status);
  }
  if (filter.beforeId !== undefined) {
    query = query.where("checkout_sessions.id", "<", filter.beforeId);
  }
  return query.orderBy("checkout_sessions.id", "desc").limit(filter.limit).execute();
}
