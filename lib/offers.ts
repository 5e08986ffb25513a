import { z } from "zod";
import {
  findOffer,
  insertOffer,
  listOffers as listOfferRows,
  updateOffer as updateOfferRow,
} from "../db/offers.ts";
import type { OfferRow } from "../db/schema.ts";
import { toIso } from "./clock.ts";
import type { OrgContext } from "./context.ts";
import { notFound } from "./errors.ts";
import { newId } from "./ids.ts";
import { pageAfter } from "./pagination.ts";
import { allowlistOf, requireOfferedMethods, storedAllowlist } from "./payments/methods.ts";
import { PaymentMethod, PaymentMethods } from "./payments/schemas.ts";
import {
  Amount,
  Currency,
  ListQuery,
  Metadata,
  NOT_BLANK,
  type Page,
  Timestamp,
} from "./schemas.ts";

export const RECURRING_INTERVALS = ["DAY", "WEEK", "MONTH", "YEAR"] as const;
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number];

/** How many of each interval make a year: a billing period is at most one year. */
const MAX_INTERVAL_COUNT: Record<RecurringInterval, number> = {
  DAY: 365,
  WEEK: 52,
  MONTH: 12,
  YEAR: 1,
};

export const Recurring = z.strictObject({
  interval: z.enum(RECURRING_INTERVALS),
  intervalCount: z.int().min(1).default(1).meta({ description: "Intervals per billing period." }),
}).refine(
  (value) => value.intervalCount <= MAX_INTERVAL_COUNT[value.interval],
  { message: "a billing period is at most one year", path: ["intervalCount"] },
).meta({
  id: "Recurring",
  description: "Makes each successful payment start a subscription. A billing period is at most " +
    "a year: intervalCount is at most 365 days, 52 weeks, 12 months or 1 year.",
  oneOf: RECURRING_INTERVALS.map((interval) => ({
    required: ["interval"],
    properties: {
      interval: { const: interval },
      intervalCount: { maximum: MAX_INTERVAL_COUNT[interval] },
    },
  })),
});

const Name = z.string().trim().min(1).max(200).meta(NOT_BLANK);
const Description = z.string().max(2000);

export const CreateOfferRequest = z.strictObject({
  name: Name.meta({ example: "Monthly coffee box" }),
  amount: Amount,
  currency: Currency,
  description: Description.optional(),
  recurring: Recurring.optional(),
  metadata: Metadata.optional(),
  paymentMethods: PaymentMethods.optional(),
}).meta({ id: "CreateOfferRequest" });
export type CreateOfferRequest = z.infer<typeof CreateOfferRequest>;

export const UpdateOfferRequest = z.strictObject({
  name: Name.optional(),
  description: Description.nullable().optional(),
  active: z.boolean().optional().meta({ description: "false deactivates the offer." }),
  metadata: Metadata.optional().meta({ description: "Replaces the metadata as a whole." }),
  paymentMethods: PaymentMethods.nullable().optional().meta({
    description: "Replaces the allowlist; null: every method the provider offers.",
  }),
}).meta({ id: "UpdateOfferRequest" });
export type UpdateOfferRequest = z.infer<typeof UpdateOfferRequest>;

export const ListOffersQuery = ListQuery.extend({
  active: z.enum(["true", "false"]).optional().meta({
    description: "Only active or inactive offers.",
  }),
});
export type ListOffersQuery = z.infer<typeof ListOffersQuery>;

export const Offer = z.strictObject({
  qrId: z.string().meta({ example: "qr_4f9TqYcW2mJx8bN3kL6pR1sV" }),
  name: z.string(),
  description: z.string().nullable(),
  amount: z.int(),
  currency: z.string(),
  recurring: z.strictObject({ interval: z.enum(RECURRING_INTERVALS), intervalCount: z.int() })
    .nullable(),
  active: z.boolean(),
  metadata: z.record(z.string(), z.string()),
  paymentMethods: z.array(PaymentMethod).nullable().meta({
    description: "The methods its payments may be paid with; null: every method offered.",
  }),
  createdAt: Timestamp,
}).meta({ id: "Offer", description: "Something a customer can pay for, identified by qrId." });
export type Offer = z.infer<typeof Offer>;

/** The API form of an offer row. */
export function toOffer(row: OfferRow): Offer {
  return {
    qrId: row.public_id,
    name: row.name,
    description: row.description,
    amount: row.amount,
    currency: row.currency,
    recurring: row.recurring_interval === null ? null : {
      interval: row.recurring_interval as RecurringInterval,
      intervalCount: row.recurring_interval_count ?? 1,
    },
    active: row.active === 1,
    metadata: JSON.parse(row.metadata),
    paymentMethods: allowlistOf(row.payment_methods),
    createdAt: toIso(row.created_at),
  };
}

/** The public URL the offer's QR code encodes: opening it starts a payment. */
export function offerPayUrl(publicUrl: string, qrId: string): string {
  return `${publicUrl}/o/${qrId}`;
}

/** Creates an offer; 400 for an allowlist naming a method the provider does not offer. */
export async function createOffer(ctx: OrgContext, input: CreateOfferRequest): Promise<OfferRow> {
  await requireOfferedMethods(ctx.services, input.paymentMethods, input.currency);
  const now = ctx.now();
  return await ctx.write((trx) =>
    insertOffer(trx, {
      public_id: newId("offer"),
      org_id: ctx.orgId,
      name: input.name,
      description: input.description ?? null,
      amount: input.amount,
      currency: input.currency,
      recurring_interval: input.recurring?.interval ?? null,
      recurring_interval_count: input.recurring?.intervalCount ?? null,
      active: 1,
      metadata: JSON.stringify(input.metadata ?? {}),
      payment_methods: storedAllowlist(input.paymentMethods),
      created_at: now,
      updated_at: now,
    })
  );
}

/** Gets one of the organisation's offers or throws 404. */
export async function getOffer(ctx: OrgContext, qrId: string): Promise<OfferRow> {
  const row = await findOffer(ctx.db, ctx.orgId, qrId);
  if (!row) throw notFound("offer", qrId, "qrId");
  return row;
}

/** Lists the organisation's offers, newest first. */
export function listOffers(ctx: OrgContext, query: ListOffersQuery): Promise<Page<OfferRow>> {
  const active = query.active === undefined ? undefined : query.active === "true";
  return pageAfter(
    query,
    (qrId) => findOffer(ctx.db, ctx.orgId, qrId),
    (beforeId, limit) => listOfferRows(ctx.db, ctx.orgId, { active, beforeId, limit }),
  );
}

/** Changes an offer's name, description, active flag, metadata or allowlist of methods. */
export async function updateOffer(
  ctx: OrgContext,
  qrId: string,
  input: UpdateOfferRequest,
): Promise<OfferRow> {
  if (input.paymentMethods) {
    const offer = await getOffer(ctx, qrId);
    await requireOfferedMethods(ctx.services, input.paymentMethods, offer.currency);
  }
  return await ctx.write(async (trx) => {
    const offer = await findOffer(trx, ctx.orgId, qrId);
    if (!offer) throw notFound("offer", qrId, "qrId");
    const updated = await updateOfferRow(trx, offer.id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.active !== undefined && { active: input.active ? 1 : 0 }),
      ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
      ...(input.paymentMethods !== undefined && {
        payment_methods: input.paymentMethods === null
          ? null
          : storedAllowlist(input.paymentMethods),
      }),
      // Strictly later, even within a millisecond: a payment create checks that its offer is
      // still as read by comparing updated_at (db/payment_create.ts).
      updated_at: Math.max(ctx.now(), offer.updated_at + 1),
    });
    return updated!;
  });
}
