import { PAYMENT_DEADLINES_JOB } from "../jobs.ts";
import { findOffer } from "../../db/offers.ts";
import { asFirstWritten, type PaymentRecord } from "../../db/payments.ts";
import { PAYMENT_CREATE } from "../../db/payment_create.ts";
import { requireInvoiceRequests } from "../business_details.ts";
import { type OrgContext, systemTimeOf } from "../context.ts";
import { ApiError } from "../errors.ts";
import { requireOfferedMethods } from "./methods.ts";
import { newEventRow } from "../events.ts";
import { IdempotencyKeyTaken, leaseEnd, type RequestKey } from "../idempotency.ts";
import {
  apiPaymentFields,
  paymentCreatedEvent,
  pendingPaymentRow,
  requireHttpsInProduction,
  requirePayableOffer,
  requireRenewalAddress,
  toPayment,
} from "./mod.ts";
import type { CreatePaymentRequest } from "./schemas.ts";

/** A new payment, with its API form as JSON: what `POST /payments` answers and its key replays. */
export interface CreatedPayment {
  payment: PaymentRecord;
  answer: string;
}

/** How often a create reads its offer again when the offer changed under it. */
const OFFER_READS = 5;

/**
 * Creates a hosted payment for an offer and writes `payment.created`; under the request's
 * Idempotency-Key (`key`), the key and the answer it replays go in the same write. The offer is
 * read (or remembered from the last create: services.offers) and its rules checked here, then
 * the payment, its event and the key are one write declared up front: one commit shared with the
 * writes waiting beside it, and on a libSQL server one round trip and statements shared with the
 * creates beside it. The write inserts only while the offer is as read and the key is new; if
 * the offer changed, it is read and checked again; if the key was there, IdempotencyKeyTaken.
 *
 * With `askedOnPage`, the customer is on the hosted page, which asks for the address a
 * subscription renewed by link needs (code entry refuses a code without it), so it is not
 * required up front.
 */
export async function createPayment(
  ctx: OrgContext,
  input: CreatePaymentRequest,
  options: { askedOnPage?: boolean; key?: RequestKey } = {},
): Promise<CreatedPayment> {
  const { services } = ctx;
  requireHttpsInProduction(services, input.successUrl, "successUrl");
  requireHttpsInProduction(services, input.cancelUrl, "cancelUrl");
  if (input.invoiceRequest) await requireInvoiceRequests(services.accounts, ctx.orgId);
  if (input.paymentMethods) {
    const offer = services.offers.get(ctx.orgId, input.qrId) ??
      await findOffer(ctx.db, ctx.orgId, input.qrId);
    if (offer) await requireOfferedMethods(services, input.paymentMethods, offer.currency);
  }
  const { key } = options;
  for (let read = 0; read < OFFER_READS; read++) {
    const offer = (read === 0 ? services.offers.get(ctx.orgId, input.qrId) : undefined) ??
      await findOffer(ctx.db, ctx.orgId, input.qrId);
    requirePayableOffer(input.qrId, offer);
    if (!options.askedOnPage) requireRenewalAddress(services, offer, input);
    const payment = pendingPaymentRow(offer, apiPaymentFields(offer, input, ctx.now()));
    const record = { ...asFirstWritten(payment), qr_id: offer.public_id };
    // The answer and the event's data are the same API form of the payment.
    const data = toPayment(record, services.config.publicUrl);
    const answer = JSON.stringify(data);
    const id = await services.store.writeMergeable(PAYMENT_CREATE, {
      payment,
      offer,
      event: newEventRow(paymentCreatedEvent(services, record, data)),
      key: key && {
        key: key.key,
        fingerprint: key.fingerprint,
        lockedUntil: leaseEnd(key.at),
        status: 201,
        contentType: "application/json",
        body: answer,
        createdAt: key.at,
      },
    });
    if (id !== null) {
      services.offers.remember(offer);
      services.scheduler.wake(PAYMENT_DEADLINES_JOB, systemTimeOf(ctx, payment.expires_at));
      return { payment: { ...record, id }, answer };
    }
    services.offers.forget(ctx.orgId, input.qrId);
    const current = await findOffer(ctx.db, ctx.orgId, input.qrId);
    if (key && current?.updated_at === offer.updated_at) throw new IdempotencyKeyTaken();
  }
  throw new ApiError(
    "state_conflict",
    `The offer '${input.qrId}' kept changing while the payment was made; try again.`,
    { param: "qrId" },
  );
}
