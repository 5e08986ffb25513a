import type { OfferRow } from "../../db/schema.ts";
import type { OrgContext } from "../context.ts";
import type { Translator } from "../i18n/mod.ts";
import { isCurrency } from "../money.ts";
import {
  CreateOfferRequest,
  getOffer,
  listOffers,
  offerPayUrl,
  type RecurringInterval,
  UpdateOfferRequest,
} from "../offers.ts";
import { listPayments, type PaymentRecord } from "../payments/mod.ts";
import { type FieldReader, parseAmountField, parseMetadataText, parseRequest } from "./forms.ts";
import { offerNamesOf } from "./insights.ts";

/** "Every month", "Every 3 months", or "One-time", in the translator's language. */
export function billingText(
  tr: Translator,
  offer: Pick<OfferRow, "recurring_interval" | "recurring_interval_count">,
): string {
  if (offer.recurring_interval === null) return tr.t("panel.offers.oneTime");
  return intervalText(
    tr,
    offer.recurring_interval as RecurringInterval,
    offer.recurring_interval_count ?? 1,
  );
}

/** "Every month", "Every 3 months": a billing interval in the translator's language. */
export function intervalText(tr: Translator, interval: RecurringInterval, count: number): string {
  return tr.t(`panel.offers.every.${interval}`, { count });
}

/** The offers page: one page of the list, all, active or inactive. */
export interface OfferList {
  offers: OfferRow[];
  active?: "true" | "false";
  /** The id the next (older) page starts after, or null on the last page. */
  nextAfter: string | null;
}

/** Loads a page of offers, newest first; `active` other than "true" or "false" shows all. */
export async function loadOfferList(
  ctx: OrgContext,
  filter: { active?: string; startingAfter?: string },
): Promise<OfferList> {
  const active = filter.active === "true" || filter.active === "false" ? filter.active : undefined;
  const page = await listOffers(ctx, { limit: 25, active, startingAfter: filter.startingAfter });
  return {
    offers: page.data,
    active,
    nextAfter: page.hasMore ? page.data.at(-1)!.public_id : null,
  };
}

/** An offer's page: the offer, where its QR code leads and its latest payments. */
export interface OfferView {
  offer: OfferRow;
  payUrl: string;
  payments: PaymentRecord[];
  offerNames: Map<number, string>;
}

/** Loads an offer's page, or throws 404. */
export async function loadOfferView(
  ctx: OrgContext,
  qrId: string,
  publicUrl: string,
): Promise<OfferView> {
  const offer = await getOffer(ctx, qrId);
  const payments = await listPayments(ctx, { limit: 5, qrId: offer.public_id });
  return {
    offer,
    payUrl: offerPayUrl(publicUrl, offer.public_id),
    payments: payments.data,
    offerNames: await offerNamesOf(ctx, payments.data),
  };
}

/** Reads the new-offer form as the API's request; 400 naming the field that is wrong. */
export function offerCreateRequestOf(field: FieldReader): CreateOfferRequest {
  const currency = field("currency").toUpperCase();
  const recurring = field("recurring");
  const description = field("description").trim();
  const metadata = field("metadata");
  const count = field("intervalCount");
  return parseRequest(CreateOfferRequest, {
    name: field("name"),
    // An unknown currency is the schema's 400 on `currency`, not a failure to read the amount.
    amount: parseAmountField(field("amount"), isCurrency(currency) ? currency : "PLN", "amount"),
    currency,
    ...(description !== "" && { description }),
    ...(recurring !== "" && {
      recurring: { interval: recurring, intervalCount: count === "" ? 1 : Number(count) },
    }),
    ...(metadata.trim() !== "" && { metadata: parseMetadataText(metadata) }),
  });
}

/** Reads the edit form of an offer as the API's request; 400 naming the field that is wrong. */
export function offerUpdateRequestOf(field: FieldReader): UpdateOfferRequest {
  const description = field("description").trim();
  return parseRequest(UpdateOfferRequest, {
    name: field("name"),
    description: description === "" ? null : description,
    active: field("active") === "true",
    metadata: parseMetadataText(field("metadata")),
  });
}
