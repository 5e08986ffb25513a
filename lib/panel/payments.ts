import type { CustomerEmailRow } from "../../db/schema.ts";
import { listLinkRenewals } from "../../db/subscription_renewals.ts";
import { renewsByLink } from "../subscriptions/link_schedule.ts";
import { listPaymentEmails } from "../emails/outbox.ts";
import type { OrgContext } from "../context.ts";
import { formatMajorAmount } from "../money.ts";
import { getPayment, listPayments, type PaymentRecord, paymentUrl } from "../payments/mod.ts";
import { ListPaymentsQuery } from "../payments/schemas.ts";
import { createRefund, refundAmountOf, type RefundRecord } from "../refunds/mod.ts";
import { CreateRefundRequest } from "../refunds/schemas.ts";
import { type FieldReader, parseAmountField, parseRequest } from "./forms.ts";
import { offerNamesOf, type PaymentDetail, paymentDetail } from "./insights.ts";

/** The payments page: one page of the list, as filtered. */
export interface PaymentList {
  payments: PaymentRecord[];
  offerNames: Map<number, string>;
  status?: string;
  qrId?: string;
  /** The id the next (older) page starts after, or null on the last page. */
  nextAfter: string | null;
}

/** Loads a page of payments, newest first, by status and offer; 400 for an unknown status. */
export async function loadPaymentList(
  ctx: OrgContext,
  filter: { status?: string; qrId?: string; startingAfter?: string },
): Promise<PaymentList> {
  const { status, qrId, startingAfter } = filter;
  const query = parseRequest(ListPaymentsQuery, {
    limit: "25",
    ...(status && { status }),
    ...(qrId && { qrId }),
    ...(startingAfter && { startingAfter }),
  });
  const page = await listPayments(ctx, query);
  return {
    payments: page.data,
    offerNames: await offerNamesOf(ctx, page.data),
    status,
    qrId,
    nextAfter: page.hasMore ? page.data.at(-1)!.public_id : null,
  };
}

/** A payment's page: its detail, the offer it is for and where the customer pays it. */
export interface PaymentView {
  detail: PaymentDetail;
  /** The e-mails the customer was sent about this payment, oldest first. */
  emails: CustomerEmailRow[];
  offerName: string;
  metadata: [string, string][];
  paymentPageUrl: string;
  /** Its subscription's latest renewal payments sent by link, newest first. */
  renewals: RenewalLinkView[];
  /** Whether this environment renews subscriptions by pay link (its provider cannot charge). */
  renewsByLink: boolean;
}

/** A renewal payment the customer was sent a link to, and every e-mail sent about it. */
export interface RenewalLinkView {
  paymentId: string;
  status: string;
  periodIndex: number;
  url: string;
  expiresAt: number;
  emails: CustomerEmailRow[];
}

/** How many renewal links a payment's page shows: the current period's, with room for retries. */
const RENEWAL_LINKS_SHOWN = 5;

async function renewalLinksOf(
  ctx: OrgContext,
  subscriptionId: number | undefined,
  publicUrl: string,
): Promise<RenewalLinkView[]> {
  if (subscriptionId === undefined) return [];
  const renewals = await listLinkRenewals(ctx.db, subscriptionId, RENEWAL_LINKS_SHOWN);
  return await Promise.all(renewals.map(async (renewal) => ({
    paymentId: renewal.payment_public_id,
    status: renewal.payment_status,
    periodIndex: renewal.period_index,
    url: paymentUrl(publicUrl, renewal.payment_public_id),
    expiresAt: renewal.payment_expires_at,
    emails: await listPaymentEmails(ctx, { id: renewal.payment_id }),
  })));
}

/** Loads a payment's page, or throws 404. */
export async function loadPaymentView(
  ctx: OrgContext,
  paymentId: string,
  publicUrl: string,
): Promise<PaymentView> {
  const detail = await paymentDetail(ctx, paymentId);
  const { payment } = detail;
  const names = await offerNamesOf(ctx, [payment]);
  return {
    detail,
    emails: await listPaymentEmails(ctx, payment),
    offerName: names.get(payment.offer_id) ?? payment.qr_id,
    metadata: Object.entries(JSON.parse(payment.metadata) as Record<string, string>),
    paymentPageUrl: paymentUrl(publicUrl, payment.public_id),
    renewals: await renewalLinksOf(ctx, detail.subscription?.id, publicUrl),
    renewsByLink: renewsByLink(ctx.services),
  };
}

/** A refund checked against its payment: exactly what confirming it gives back. */
export interface RefundReview {
  amount: number;
  currency: string;
  /** The amount in major units, as the refund form takes it back: "12.50". */
  amountText: string;
  reason: string;
}

/** The refund form's amount is in major units, "" for all that is left. */
function refundRequestFor(payment: PaymentRecord, field: FieldReader): CreateRefundRequest {
  const amount = field("amount").trim();
  const reason = field("reason").trim();
  return parseRequest(CreateRefundRequest, {
    ...(amount !== "" && { amount: parseAmountField(amount, payment.currency, "amount") }),
    ...(reason !== "" && { reason }),
  });
}

/** Makes the refund a form asks for, its amount read in the payment's currency. */
export async function refundFromForm(
  ctx: OrgContext,
  paymentId: string,
  field: FieldReader,
): Promise<RefundRecord> {
  const payment = await getPayment(ctx, paymentId);
  return await createRefund(ctx, paymentId, refundRequestFor(payment, field));
}

/**
 * Checks a refund form against the payment without refunding anything: the amount confirming
 * it would give back, or the error the refund itself would get.
 */
export async function reviewRefund(
  ctx: OrgContext,
  paymentId: string,
  field: FieldReader,
): Promise<RefundReview> {
  const payment = await getPayment(ctx, paymentId);
  const request = refundRequestFor(payment, field);
  const amount = refundAmountOf(payment, request.amount);
  return {
    amount,
    currency: payment.currency,
    amountText: formatMajorAmount(amount, payment.currency),
    reason: request.reason ?? "",
  };
}
