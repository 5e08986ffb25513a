import type { Kysely } from "kysely";
import { findOffersByIds } from "../../db/offers.ts";
import type { PaymentRecord } from "../../db/payments.ts";
import type { EnvironmentSchema, SubscriptionRow } from "../../db/schema.ts";
import { findOpenRenewal, findRenewalOfPayment } from "../../db/subscription_renewals.ts";
import { findSubscriptionById } from "../../db/subscriptions.ts";
import type { Services } from "../context.ts";
import { ApiError } from "../errors.ts";
import { renewsByLink } from "./link_schedule.ts";
import { closeRenewalPayment, isBeingPaid } from "./links.ts";

/**
 * Closes a subscription's open renewal when the merchant cancels it: an unpaid link's payment is
 * CANCELED (the customer can no longer pay it); a charge in flight, or a link the customer is
 * paying right now, is 409 (it may have taken the money, and settles within moments).
 */
export async function closeOpenRenewal(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  subscription: SubscriptionRow,
  now: number,
): Promise<void> {
  const open = await findOpenRenewal(trx, subscription.id);
  if (!open) return;
  if (open.method === "LINK" && !await isBeingPaid(trx, open)) {
    await closeRenewalPayment(trx, services, open, "CANCELED", now);
    return;
  }
  throw new ApiError(
    "subscription_renewal_in_progress",
    open.method === "LINK"
      ? `The customer is paying the renewal '${open.payment_public_id}' of the subscription ` +
        `'${subscription.public_id}' right now; retry the cancellation in a minute.`
      : `A renewal of the subscription '${subscription.public_id}' is being charged right now; ` +
        "retry the cancellation in a few seconds.",
  );
}

/**
 * The rules of code entry for subscriptions, checked before the provider hears of a code: a
 * renewal of a canceled subscription is refused (the customer is not charged), and where renewals
 * go by link, a first payment needs the customer's e-mail address (the links are sent there).
 */
export async function assertSubscriptionPayable(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  payment: PaymentRecord,
): Promise<void> {
  const renewal = await findRenewalOfPayment(trx, payment.id);
  if (renewal) {
    const subscription = (await findSubscriptionById(trx, renewal.subscription_id))!;
    if (subscription.status === "CANCELED") {
      throw new ApiError(
        "subscription_canceled",
        `The subscription '${subscription.public_id}' this payment renews was canceled; ` +
          "nothing was charged.",
      );
    }
    return;
  }
  if (payment.customer_email !== null || !renewsByLink(services)) return;
  const [offer] = await findOffersByIds(trx, [payment.offer_id]);
  if (offer?.recurring_interval) throw customerEmailRequired(offer.public_id);
}

/**
 * Whether a payment for `offerId` must carry the customer's e-mail address: it starts a
 * subscription whose renewal links are e-mailed (the pages ask for it as required).
 */
export async function needsRenewalAddress(
  db: Kysely<EnvironmentSchema>,
  services: Services,
  offerId: number,
): Promise<boolean> {
  if (!renewsByLink(services)) return false;
  const [offer] = await findOffersByIds(db, [offerId]);
  return offer?.recurring_interval != null;
}

/** The 400 for a first payment of a subscription renewed by link without an e-mail address. */
export function customerEmailRequired(qrId: string): ApiError {
  return new ApiError(
    "customer_email_required",
    `The offer '${qrId}' is a subscription renewed by a pay link sent by e-mail, so its first ` +
      "payment needs the customer's e-mail address.",
    { param: "customer.email" },
  );
}
