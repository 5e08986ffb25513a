import type { Kysely } from "kysely";
import {
  findApiPayment,
  findPayment,
  findPaymentByPublicId,
  insertPayment,
  listPayments as listPaymentRows,
  type NewPayment,
  type PaymentApiRow,
  type PaymentRecord,
  transitionPayment,
} from "../../db/payments.ts";
import type { EnvironmentSchema, OfferRow, PaymentsTable } from "../../db/schema.ts";
import { toIso } from "../clock.ts";
import type { OrgContext, Services } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { recordEvent } from "../events.ts";
import { newId } from "../ids.ts";
import { pageAfter } from "../pagination.ts";
import type { FailureCode, PaymentMethod } from "../providers/mod.ts";
import { allowlistOf, storedAllowlist } from "./methods.ts";
import { customerEmailRequired } from "../subscriptions/link_rules.ts";
import { renewsByLink } from "../subscriptions/link_schedule.ts";
import { isLanguage, type Language } from "../i18n/languages.ts";
import type { Page } from "../schemas.ts";
import type { CreatePaymentRequest, ListPaymentsQuery, Payment } from "./schemas.ts";
import {
  canTransition,
  isFinal,
  MILESTONE_COLUMN,
  type PaymentStatus,
  TRANSITION_EVENT,
} from "./status.ts";

export type { PaymentRecord };

/** A payment's record before its row id is known: all that its API form shows. */
export type NewPaymentRecord = Omit<PaymentRecord, "id">;

/** The hosted page of a payment. */
export function paymentUrl(publicUrl: string, paymentId: string): string {
  return `${publicUrl}/pay/${paymentId}`;
}

/** The API form of a payment. */
export function toPayment(row: PaymentApiRow, publicUrl: string): Payment {
  return {
    paymentId: row.public_id,
    qrId: row.qr_id,
    status: row.status as PaymentStatus,
    amount: row.amount,
    currency: row.currency,
    quantity: row.quantity,
    amountRefunded: row.amount_refunded,
    customer: { email: row.customer_email, name: row.customer_name },
    paymentUrl: paymentUrl(publicUrl, row.public_id),
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    expiresAt: toIso(row.expires_at),
    failureCode: row.failure_code as FailureCode | null,
    metadata: JSON.parse(row.metadata),
    invoiceRequest: invoiceRequestOf(row),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: row.version,
    locale: isLanguage(row.locale) ? row.locale : "auto",
    paymentMethods: allowlistOf(row.payment_methods),
    paymentMethod: row.payment_method as PaymentMethod | null,
    bank: row.bank,
    provider: row.provider,
  };
}

/** Throws 400 for a redirect URL that is not https:// in production. */
export function requireHttpsInProduction(
  services: Services,
  url: string | undefined,
  param: string,
) {
  if (url !== undefined && services.environment === "production" && !url.startsWith("https://")) {
    throw new ApiError("parameter_invalid", `${param} must be an https:// URL in production.`, {
      param,
    });
  }
}

/**
 * Moves a payment to `to` if it is still in the status it was read in, and writes the event of
 * the change in the same transaction. Returns undefined if another change got there first.
 */
export async function transition(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  payment: PaymentRecord,
  to: Exclude<PaymentStatus, "PENDING">,
  now: number,
  changes: Partial<
    Pick<
      PaymentsTable,
      | "failure_code"
      | "processing_deadline_at"
      | "attempt_id"
      | "payment_method"
      | "bank"
      | "provider"
    >
  > = {},
): Promise<PaymentRecord | undefined> {
  const from = payment.status as PaymentStatus;
  if (!canTransition(from, to)) return undefined;
  const updated = await transitionPayment(trx, payment.id, from, to, {
    ...changes,
    [MILESTONE_COLUMN[to]]: now,
    updated_at: now,
  });
  if (!updated) return undefined;
  const record: PaymentRecord = { ...updated, qr_id: payment.qr_id };
  await recordEvent(trx, {
    orgId: record.org_id,
    type: TRANSITION_EVENT[to],
    environment: services.environment,
    createdAt: now,
    data: toPayment(record, services.config.publicUrl),
  });
  for (const hook of services.paymentHooks) await hook(trx, services, record, to, now);
  return record;
}

/** The invoice a payment's customer asked for (both columns set), or null. */
export function invoiceRequestOf(
  row: { invoice_company_name: string | null; invoice_tax_id: string | null },
): { companyName: string; taxId: string } | null {
  return row.invoice_company_name !== null && row.invoice_tax_id !== null
    ? { companyName: row.invoice_company_name, taxId: row.invoice_tax_id }
    : null;
}

/** Throws the 404 or 409 that says why `offer` cannot be paid for. */
export function requirePayableOffer(
  qrId: string,
  offer: OfferRow | undefined,
): asserts offer is OfferRow {
  if (!offer) throw notFound("offer", qrId, "qrId");
  if (offer.active !== 1) {
    throw new ApiError("offer_inactive", `The offer '${qrId}' is no longer active.`, {
      param: "qrId",
    });
  }
}

/**
 * Throws 400 `customer_email_required` for a payment that would start a subscription renewed by
 * link without the customer's e-mail address: its renewal links could never reach them.
 */
export function requireRenewalAddress(
  services: Services,
  offer: OfferRow,
  input: CreatePaymentRequest,
): void {
  if (offer.recurring_interval !== null && !input.customer?.email && renewsByLink(services)) {
    throw customerEmailRequired(offer.public_id);
  }
}

/** What a payment the API creates for `offer` is made of. */
export function apiPaymentFields(
  offer: Pick<OfferRow, "amount" | "payment_methods">,
  input: CreatePaymentRequest,
  now: number,
): PendingPaymentFields {
  return {
    publicId: newId("payment"),
    amount: offer.amount * input.quantity,
    quantity: input.quantity,
    customerEmail: input.customer?.email?.toLowerCase() ?? null,
    customerName: input.customer?.name ?? null,
    successUrl: input.successUrl ?? null,
    cancelUrl: input.cancelUrl ?? null,
    metadata: input.metadata ?? {},
    invoice: input.invoiceRequest ?? null,
    expiresAt: now + input.expiresInMinutes * 60_000,
    now,
    locale: storedLocale(input.locale),
    paymentMethods: input.paymentMethods ?? allowlistOf(offer.payment_methods) ?? undefined,
  };
}

/** The `locale` column of a requested locale: `auto` (or none) is stored as null. */
export function storedLocale(locale: "pl" | "en" | "auto" | undefined): Language | null {
  return locale === "pl" || locale === "en" ? locale : null;
}

/** A new payment's own fields; the offer gives the rest. */
export interface PendingPaymentFields {
  publicId: string;
  amount: number;
  quantity: number;
  customerEmail: string | null;
  customerName: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  /** The invoice the customer asked for, its NIP already checked. */
  invoice: { companyName: string; taxId: string } | null;
  expiresAt: number;
  now: number;
  /** The customer's language, null for `auto`. */
  locale?: Language | null;
  /** The methods it may be paid with; undefined: every one offered. */
  paymentMethods?: readonly PaymentMethod[];
}

/** The row of a new PENDING payment for `offer`. */
export function pendingPaymentRow(
  offer: Pick<OfferRow, "id" | "org_id" | "currency">,
  fields: PendingPaymentFields,
): NewPayment {
  return {
    public_id: fields.publicId,
    org_id: offer.org_id,
    offer_id: offer.id,
    status: "PENDING",
    amount: fields.amount,
    currency: offer.currency,
    quantity: fields.quantity,
    amount_refunded: 0,
    customer_email: fields.customerEmail,
    customer_name: fields.customerName,
    success_url: fields.successUrl,
    cancel_url: fields.cancelUrl,
    failure_code: null,
    metadata: JSON.stringify(fields.metadata),
    expires_at: fields.expiresAt,
    processing_deadline_at: null,
    created_at: fields.now,
    updated_at: fields.now,
    locale: fields.locale ?? null,
    invoice_company_name: fields.invoice?.companyName ?? null,
    invoice_tax_id: fields.invoice?.taxId ?? null,
    payment_methods: storedAllowlist(fields.paymentMethods),
    attempt_id: null,
    payment_method: null,
    bank: null,
    provider: null,
    customer_language: null,
  };
}

/**
 * Inserts a PENDING payment for an offer and its `payment.created` event in `trx`: the one way a
 * payment is created (the API, checkout attempts and subscription renewals). `offer` is what is
 * sold, in the currency the payment is in.
 */
export async function insertPendingPayment(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  offer: Pick<OfferRow, "id" | "org_id" | "public_id" | "currency">,
  fields: PendingPaymentFields,
): Promise<PaymentRecord> {
  const row = await insertPayment(trx, pendingPaymentRow(offer, fields));
  const record: PaymentRecord = { ...row, qr_id: offer.public_id };
  await recordEvent(trx, paymentCreatedEvent(services, record));
  return record;
}

/** The `payment.created` event of a new payment. */
export function paymentCreatedEvent(
  services: Services,
  record: NewPaymentRecord,
  data: Payment = toPayment(record, services.config.publicUrl),
) {
  return {
    orgId: record.org_id,
    type: "payment.created" as const,
    environment: services.environment,
    createdAt: record.created_at,
    data,
  };
}

/** Gets one of the organisation's payments or throws 404. */
export async function getPayment(ctx: OrgContext, paymentId: string): Promise<PaymentRecord> {
  const row = await findPayment(ctx.db, ctx.orgId, paymentId);
  if (!row) throw notFound("payment", paymentId, "paymentId");
  return row;
}

/** Gets what the API shows of one of the organisation's payments, or throws 404. */
export async function getApiPayment(ctx: OrgContext, paymentId: string): Promise<PaymentApiRow> {
  const row = await findApiPayment(ctx.db, ctx.orgId, paymentId);
  if (!row) throw notFound("payment", paymentId, "paymentId");
  return row;
}

/** Lists the organisation's payments newest first, by status and offer. */
export function listPayments(
  ctx: OrgContext,
  query: ListPaymentsQuery,
): Promise<Page<PaymentRecord>> {
  return pageAfter(
    query,
    (paymentId) => findPayment(ctx.db, ctx.orgId, paymentId),
    (beforeId, limit) =>
      listPaymentRows(ctx.db, ctx.orgId, {
        status: query.status,
        qrId: query.qrId,
        beforeId,
        limit,
      }),
  );
}

/** Throws the 409 that says why a payment can no longer be paid or canceled. */
export function assertPayable(payment: PaymentRecord, now: number): void {
  const status = payment.status as PaymentStatus;
  if (isFinal(status)) {
    throw new ApiError(
      "payment_already_final",
      `The payment '${payment.public_id}' is already ${status}; a final payment never changes.`,
    );
  }
  if (status === "PROCESSING") {
    throw new ApiError(
      "payment_processing",
      `The payment '${payment.public_id}' is being processed; wait for its result.`,
    );
  }
  if (payment.expires_at <= now) {
    throw new ApiError(
      "payment_expired",
      `The payment '${payment.public_id}' expired at ${toIso(payment.expires_at)}.`,
    );
  }
}

/** Throws 403 `sandbox_only` outside the sandbox. */
export function requireSandbox(services: Services): void {
  if (services.environment !== "sandbox") {
    throw new ApiError(
      "sandbox_only",
      `This operation exists only in the sandbox; call it on the sandbox API host (${services.config.sandboxPublicUrl}).`,
    );
  }
}

/** Finds a payment by id for the public hosted page, whatever its organisation. */
export function findPublicPayment(
  services: Services,
  paymentId: string,
): Promise<PaymentRecord | undefined> {
  return findPaymentByPublicId(services.store.db, paymentId);
}
