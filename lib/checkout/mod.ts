import { CHECKOUT_EXPIRY_JOB } from "../jobs.ts";
import type { Kysely } from "kysely";
import {
  type CheckoutSessionRecord,
  findCheckoutSession,
  findCheckoutSessionById,
  findCheckoutSessionByPublicId,
  insertCheckoutSession,
  listCheckoutSessions as listCheckoutSessionRows,
  transitionCheckoutSession,
} from "../../db/checkout_sessions.ts";
import { findOffer } from "../../db/offers.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { toIso } from "../clock.ts";
import { type OrgContext, type Services, wakeAtOrgTime } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { recordEvent } from "../events.ts";
import { newId } from "../ids.ts";
import { pageAfter } from "../pagination.ts";
import { MAX_AMOUNT } from "../money.ts";
import { requireHttpsInProduction, storedLocale } from "../payments/mod.ts";
import { allowlistOf, requireOfferedMethods, storedAllowlist } from "../payments/methods.ts";
import { isLanguage } from "../i18n/languages.ts";
import { embedOriginOf } from "./origins.ts";
import type { ListQuery, Page } from "../schemas.ts";
import type { CheckoutSession, CreateCheckoutSessionRequest, LineItem } from "./schemas.ts";
import { isOriginAllowed } from "./settings.ts";
import { canTransition, MILESTONE_COLUMN, type SessionStatus, TRANSITION_EVENT } from "./status.ts";

export type { CheckoutSessionRecord };

/**
 * The origin of this environment's own pages. The panel's live preview embeds checkout there,
 * so sessions created for it may use it without the merchant listing it (see createPreviewSession).
 */
export function ownOrigin(services: Services): string {
  return new URL(services.config.publicUrl).origin;
}

/** The checkout page of a session, loaded in the merchant's iframe. */
export function embedUrl(publicUrl: string, sessionId: string): string {
  return `${publicUrl}/checkout/${sessionId}`;
}

/** The API form of a checkout session. */
export function toCheckoutSession(row: CheckoutSessionRecord, publicUrl: string): CheckoutSession {
  return {
    sessionId: row.public_id,
    embedUrl: embedUrl(publicUrl, row.public_id),
    expiresAt: toIso(row.expires_at),
    status: row.status as SessionStatus,
    qrId: row.qr_id,
    amount: row.amount,
    currency: row.currency,
    embedLink: row.embed_link,
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    lineItems: row.line_items === null ? null : JSON.parse(row.line_items),
    metadata: JSON.parse(row.metadata),
    paymentId: row.payment_public_id,
    createdAt: toIso(row.created_at),
    version: row.version,
    locale: isLanguage(row.locale) ? row.locale : "auto",
    paymentMethods: allowlistOf(row.payment_methods),
  };
}

/** The sum of the line items, or 400 when it is zero or larger than any payment may be. */
function lineItemsTotal(lineItems: LineItem[]): number {
  let total = 0;
  for (const item of lineItems) {
    total += item.quantity * item.unitAmount;
    if (total > MAX_AMOUNT) {
      throw new ApiError(
        "parameter_invalid",
        `'lineItems' add up to more than the largest amount a payment may have (${MAX_AMOUNT}).`,
        { param: "lineItems" },
      );
    }
  }
  if (total < 1) {
    throw new ApiError(
      "parameter_invalid",
      "'lineItems' add up to 0; a checkout must charge something.",
      { param: "lineItems" },
    );
  }
  return total;
}

/**
 * Creates an OPEN checkout session for an offer, to be embedded on `embedLink`, whose origin
 * must be on the organisation's allowlist. `ownOriginAllowed` (the panel's preview, never the
 * API) also accepts this environment's own origin.
 */
export async function createCheckoutSession(
  ctx: OrgContext,
  qrId: string,
  input: CreateCheckoutSessionRequest,
  options: { ownOriginAllowed?: boolean } = {},
): Promise<CheckoutSessionRecord> {
  const { services } = ctx;
  requireHttpsInProduction(services, input.successUrl, "successUrl");
  requireHttpsInProduction(services, input.cancelUrl, "cancelUrl");
  const embedOrigin = embedOriginOf(input.embedLink, services.environment);
  const amount = input.lineItems === undefined ? null : lineItemsTotal(input.lineItems);
  if (input.paymentMethods) {
    const offer = await findOffer(ctx.db, ctx.orgId, qrId);
    if (offer) await requireOfferedMethods(services, input.paymentMethods, offer.currency);
  }
  const now = ctx.now();
  const session = await ctx.write(async (trx) => {
    const offer = await findOffer(trx, ctx.orgId, qrId);
    if (!offer) throw notFound("offer", qrId, "qrId");
    if (offer.active !== 1) {
      throw new ApiError("offer_inactive", `The offer '${qrId}' is no longer active.`, {
        param: "qrId",
      });
    }
    const own = options.ownOriginAllowed === true && embedOrigin === ownOrigin(services);
    if (!own && !await isOriginAllowed(trx, ctx.orgId, embedOrigin)) {
      throw new ApiError(
        "embed_origin_not_allowed",
        `The origin ${embedOrigin} of embedLink is not allowed to embed checkout. Add it with ` +
          "PUT /api/v1/checkout-settings (or in the panel: Developers -> Checkout sessions).",
        { param: "embedLink" },
      );
    }
    const row = await insertCheckoutSession(trx, {
      public_id: newId("checkoutSession"),
      org_id: ctx.orgId,
      offer_id: offer.id,
      status: "OPEN",
      amount: amount ?? offer.amount,
      currency: offer.currency,
      embed_link: input.embedLink,
      embed_origin: embedOrigin,
      success_url: input.successUrl ?? null,
      cancel_url: input.cancelUrl ?? null,
      line_items: input.lineItems === undefined ? null : JSON.stringify(input.lineItems),
      metadata: JSON.stringify(input.metadata ?? {}),
      payment_id: null,
      expires_at: now + input.expiresInMinutes * 60_000,
      locale: storedLocale(input.locale),
      payment_methods: storedAllowlist(input.paymentMethods),
      created_at: now,
      updated_at: now,
    });
    const record: CheckoutSessionRecord = {
      ...row,
      qr_id: offer.public_id,
      offer_name: offer.name,
      offer_description: offer.description,
      offer_payment_methods: offer.payment_methods,
      payment_public_id: null,
      payment_status: null,
      payment_failure_code: null,
      payment_processing_at: null,
      payment_customer_email: null,
    };
    wakeAtOrgTime(ctx, trx, CHECKOUT_EXPIRY_JOB, record.expires_at);
    return record;
  });
  return session;
}

/** Gets one of the organisation's sessions or throws 404. */
export async function getCheckoutSession(
  ctx: OrgContext,
  sessionId: string,
): Promise<CheckoutSessionRecord> {
  const row = await findCheckoutSession(ctx.db, ctx.orgId, sessionId);
  if (!row) throw notFound("checkout session", sessionId, "sessionId");
  return row;
}

/** Lists the organisation's sessions newest first, optionally in one status. */
export function listCheckoutSessions(
  ctx: OrgContext,
  query: ListQuery & { status?: SessionStatus },
): Promise<Page<CheckoutSessionRecord>> {
  return pageAfter(
    query,
    (sessionId) => findCheckoutSession(ctx.db, ctx.orgId, sessionId),
    (beforeId, limit) =>
      listCheckoutSessionRows(ctx.db, ctx.orgId, { status: query.status, beforeId, limit }),
  );
}

/** Finds a session by id for the public checkout page, whatever its organisation. */
export function findPublicCheckoutSession(
  services: Services,
  sessionId: string,
): Promise<CheckoutSessionRecord | undefined> {
  return findCheckoutSessionByPublicId(services.store.db, sessionId);
}

function alreadyCompleted(session: CheckoutSessionRecord): ApiError {
  return new ApiError(
    "session_already_completed",
    `The checkout session '${session.public_id}' is already COMPLETED.`,
  );
}

function attemptProcessing(session: CheckoutSessionRecord): ApiError {
  return new ApiError(
    "payment_processing",
    `The checkout session's payment '${session.payment_public_id}' is being processed; wait for its result.`,
  );
}

/**
 * Throws the 409 that says why a session takes no payment attempt now: it is completed,
 * expired, or its latest attempt is still processing.
 */
export function assertSessionPayable(session: CheckoutSessionRecord, now: number): void {
  if (session.status === "COMPLETED") throw alreadyCompleted(session);
  if (session.payment_status === "PROCESSING") throw attemptProcessing(session);
  if (session.status === "EXPIRED" || session.expires_at <= now) {
    throw new ApiError(
      "session_expired",
      `The checkout session '${session.public_id}' expired at ${toIso(session.expires_at)}.`,
    );
  }
}

/**
 * Moves a session to `to` if it is still in the status it was read in, and writes the event of
 * the change in the same transaction. Returns undefined if another change got there first.
 */
export async function transitionSession(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  session: CheckoutSessionRecord,
  to: Exclude<SessionStatus, "OPEN">,
  now: number,
): Promise<CheckoutSessionRecord | undefined> {
  const from = session.status as SessionStatus;
  if (!canTransition(from, to)) return undefined;
  const updated = await transitionCheckoutSession(trx, session.id, from, to, {
    [MILESTONE_COLUMN[to]]: now,
    updated_at: now,
  });
  if (!updated) return undefined;
  const record = (await findCheckoutSessionById(trx, session.id))!;
  await recordEvent(trx, {
    orgId: record.org_id,
    type: TRANSITION_EVENT[to],
    environment: services.environment,
    createdAt: now,
    data: toCheckoutSession(record, services.config.publicUrl),
  });
  return record;
}

/** Expires an open session now; writes `checkout.session.expired`. */
export function expireCheckoutSession(
  ctx: OrgContext,
  sessionId: string,
): Promise<CheckoutSessionRecord> {
  return ctx.write(async (trx) => {
    const session = await findCheckoutSession(trx, ctx.orgId, sessionId);
    if (!session) throw notFound("checkout session", sessionId, "sessionId");
    if (session.status === "EXPIRED") {
      throw new ApiError(
        "session_expired",
        `The checkout session '${sessionId}' has already expired.`,
      );
    }
    if (session.status === "COMPLETED") throw alreadyCompleted(session);
    // An attempt in flight may still succeed; the session must stay able to complete.
    if (session.payment_status === "PROCESSING") throw attemptProcessing(session);
    const expired = await transitionSession(trx, ctx.services, session, "EXPIRED", ctx.now());
    if (!expired) throw new Error("An open session read in this transaction changed status.");
    return expired;
  });
}
