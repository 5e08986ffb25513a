import { findOffer } from "../../db/offers.ts";
import { asFirstWritten } from "../../db/payments.ts";
import { paymentCreateStatements } from "../../db/payment_create.ts";
import type { OfferRow } from "../../db/schema.ts";
import { type OrgContext, type Services, systemTimeOf } from "../context.ts";
import { newEventRow } from "../events.ts";
import { leaseEnd, type StoredResponse } from "../idempotency.ts";
import {
  apiPaymentFields,
  type NewPaymentRecord,
  PAYMENT_DEADLINES_JOB,
  paymentCreatedEvent,
  pendingPaymentRow,
  requireHttpsInProduction,
  requirePayableOffer,
  requireRenewalAddress,
  toPayment,
} from "./mod.ts";
import type { CreatePaymentRequest } from "./schemas.ts";

/**
 * Offers as last read, per database, by organisation and `qrId`. A stale entry is harmless: the
 * batch inserts only while the offer is still as read, and a miss drops the entry.
 */
const offerCache = new WeakMap<object, Map<string, OfferRow>>();
const OFFER_CACHE_MAX = 10_000;

function offersOf(services: Services): Map<string, OfferRow> {
  let offers = offerCache.get(services.store);
  if (!offers) offerCache.set(services.store, offers = new Map());
  return offers;
}

/**
 * Creates a payment the usual way in one write declared up front: the payment, its event and
 * (under an Idempotency-Key) the key with its answer, in one statement batch — one round trip to
 * a libSQL server, and nothing rendered while a transaction is open. Returns the 201 answer, or
 * null when the usual case does not hold (the offer cannot be paid for, the key was seen before,
 * the offer changed since it was read): then nothing was written, and `createPayment` under the
 * idempotency middleware gives the answer, errors included, exactly as ever.
 */
export async function createPaymentAtOnce(
  ctx: OrgContext,
  input: CreatePaymentRequest,
  idempotency?: { key: string; fingerprint: string },
): Promise<StoredResponse | null> {
  const { services } = ctx;
  // An invoice request is checked against the business details (the accounts database): the
  // usual path reads them; this one stays a single write.
  if (input.invoiceRequest) return null;
  const offers = offersOf(services);
  const offerKey = `${ctx.orgId}/${input.qrId}`;
  const offer = offers.get(offerKey) ?? await findOffer(ctx.db, ctx.orgId, input.qrId);
  try {
    requireHttpsInProduction(services, input.successUrl, "successUrl");
    requireHttpsInProduction(services, input.cancelUrl, "cancelUrl");
    requirePayableOffer(input.qrId, offer);
    requireRenewalAddress(services, offer, input);
  } catch {
    return null;
  }
  const now = ctx.now();
  // Keys live on the system clock, not the organisation's (see claimIdempotencyKey).
  const keyTime = services.clock.now();
  const payment = pendingPaymentRow(offer, apiPaymentFields(offer, input, now));
  const record: NewPaymentRecord = { ...asFirstWritten(payment), qr_id: offer.public_id };
  const response: StoredResponse = {
    status: 201,
    contentType: "application/json",
    body: JSON.stringify(toPayment(record, services.config.publicUrl)),
  };
  const [inserted] = await services.store.writeStatements(paymentCreateStatements({
    payment,
    offer,
    event: newEventRow(paymentCreatedEvent(services, record)),
    key: idempotency && {
      ...idempotency,
      ...response,
      lockedUntil: leaseEnd(keyTime),
      createdAt: keyTime,
    },
  }));
  if (inserted.rowsAffected === 0) {
    offers.delete(offerKey);
    return null;
  }
  if (offers.size >= OFFER_CACHE_MAX) offers.clear();
  offers.set(offerKey, offer);
  services.scheduler.wake(PAYMENT_DEADLINES_JOB, systemTimeOf(ctx, payment.expires_at));
  return response;
}
