import type { BusinessDetails } from "../business_details.ts";
import type { Language } from "../i18n/languages.ts";

// What a customer e-mail says, before it is worded (`content.ts`): the outbox and the model's
// loader need only this, and a process that has sent no e-mail then holds no catalogue and no
// Preact (issue 34, idle memory).

/** The e-mails a customer is sent. */
export const EMAIL_KINDS = [
  "PAYMENT_CONFIRMATION",
  "REFUND_NOTICE",
  "RENEWAL_NOTICE",
  "RENEWAL_REMINDER",
] as const;
export type EmailKind = typeof EMAIL_KINDS[number];

/** Who the customer paid: the business details, or the organisation's name before they are set. */
export interface Seller {
  name: string;
  addressLines: string[];
  taxId: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
}

/** One line of what was bought. */
export interface BoughtLine {
  name: string;
  quantity: number;
  unitAmount: number;
}

/** Everything one customer e-mail says, in the customer's language. */
export interface EmailModel {
  kind: EmailKind;
  language: Language;
  seller: Seller;
  lines: BoughtLine[];
  total: number;
  currency: string;
  /** When the payment was made (it succeeded). */
  paidAt: number;
  paymentId: string;
  invoice: { companyName: string; taxId: string } | null;
  /** The refund a notice is about. */
  refund: { refundId: string; amount: number } | null;
  /** The subscription renewal a renewal notice or reminder asks the customer to pay. */
  renewal?: RenewalLink | null;
}

/** A renewal the customer pays by link: what it renews, until when, and where to pay. */
export interface RenewalLink {
  /** The renewal payment's hosted page, in the e-mail's language. */
  payUrl: string;
  /** The period the payment renews: it starts when the paid one ends. */
  periodStart: number;
  periodEnd: number;
  /** The link's last moment; the subscription is canceled after it. */
  expiresAt: number;
}

/** An e-mail ready to send: the subject, a plain-text body and an HTML body. */
export interface RenderedEmail {
  language: Language;
  subject: string;
  text: string;
  html: string;
}

/** The seller a customer is told about (art. 12: name, address, NIP, how to reach them). */
export function sellerOf(details: BusinessDetails | null, organisationName: string): Seller {
  if (!details) {
    return {
      name: organisationName,
      addressLines: [],
      taxId: null,
      contactEmail: null,
      contactPhone: null,
    };
  }
  const { address } = details;
  return {
    name: details.legalName,
    addressLines: [
      address.line1,
      ...(address.line2 ? [address.line2] : []),
      `${address.postalCode} ${address.city}`,
      ...(address.country === "PL" ? [] : [address.country]),
    ],
    taxId: details.taxId ?? null,
    contactEmail: details.contactEmail,
    contactPhone: details.contactPhone ?? null,
  };
}
