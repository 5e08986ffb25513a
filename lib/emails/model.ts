import { findEmailFacts, type LeasedEmail } from "../../db/customer_emails.ts";
import { findOrganisation } from "../../db/organisations.ts";
import {
  findRenewalEmailSubject,
  type RenewalEmailSubject,
} from "../../db/subscription_renewals.ts";
import { getBusinessDetails } from "../business_details.ts";
import type { Services } from "../context.ts";
import { isLanguage } from "../i18n/languages.ts";
import type { RecurringInterval } from "../offers.ts";
import { invoiceRequestOf, paymentUrl } from "../payments/mod.ts";
import { period } from "../subscriptions/periods.ts";
import {
  type BoughtLine,
  type EmailKind,
  type EmailModel,
  type RenewalLink,
  sellerOf,
} from "./facts.ts";

interface StoredLineItem {
  name: string;
  quantity: number;
  unitAmount: number;
}

/**
 * Reads what an e-mail says when it is sent: the payment, what was bought (a checkout session's
 * line items, else the offer times the quantity), the refund, and the seller's business details.
 * The language is the payment's (a renewal's: the subscription's first payment's); for "auto",
 * the language of the page the customer paid on; else the business's default, else Polish.
 */
export async function loadEmailModel(services: Services, email: LeasedEmail): Promise<EmailModel> {
  const [facts, details, organisation, renewal] = await Promise.all([
    findEmailFacts(services.store.db, email.payment_id, email.refund_id),
    getBusinessDetails(services.accounts, email.org_id),
    findOrganisation(services.accounts.db, email.org_id),
    findRenewalEmailSubject(services.store.db, email.payment_id),
  ]);
  if (!facts) throw new Error(`The payment of e-mail ${email.public_id} is gone.`);
  if (email.refund_id !== null && facts.refund_public_id === null) {
    throw new Error(`The refund of e-mail ${email.public_id} is gone.`);
  }
  const lines: BoughtLine[] = facts.line_items === null
    ? [{
      name: facts.offer_name,
      quantity: facts.quantity,
      unitAmount: facts.amount % facts.quantity === 0
        ? facts.amount / facts.quantity
        : facts.offer_amount,
    }]
    : (JSON.parse(facts.line_items) as StoredLineItem[]);
  const locale = renewal?.first_locale ?? facts.locale;
  const language = isLanguage(locale)
    ? locale
    : isLanguage(facts.customer_language)
    ? facts.customer_language
    : details?.defaultLanguage ?? "pl";
  return {
    kind: email.kind as EmailKind,
    language,
    seller: sellerOf(details, organisation?.name ?? ""),
    lines,
    total: facts.amount,
    currency: facts.currency,
    paidAt: facts.succeeded_at ?? facts.created_at,
    paymentId: facts.public_id,
    invoice: invoiceRequestOf(facts),
    refund: facts.refund_public_id !== null && facts.refund_amount !== null
      ? { refundId: facts.refund_public_id, amount: facts.refund_amount }
      : null,
    renewal: renewal === undefined || !RENEWAL_KINDS.has(email.kind) ? null : {
      ...renewedPeriod(renewal),
      payUrl: `${paymentUrl(services.config.publicUrl, facts.public_id)}?lang=${language}`,
      expiresAt: renewal.expires_at,
    },
  };
}

/** The e-mails that ask for a renewal payment (a confirmation of one needs no link). */
const RENEWAL_KINDS = new Set<string>(["RENEWAL_NOTICE", "RENEWAL_REMINDER"]);

/** The period a renewal payment pays for, from the subscription's anchor. */
function renewedPeriod(
  renewal: RenewalEmailSubject,
): Pick<RenewalLink, "periodStart" | "periodEnd"> {
  const cycle = {
    interval: renewal.recurring_interval as RecurringInterval,
    count: renewal.recurring_interval_count,
  };
  const { start, end } = period(renewal.anchor_at, cycle, renewal.period_index);
  return { periodStart: start, periodEnd: end };
}
