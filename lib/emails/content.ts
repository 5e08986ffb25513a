import type { BusinessDetails } from "../business_details.ts";
import { type Language, type Translator, translator } from "../i18n/mod.ts";

/** The e-mails a customer is sent. */
export const EMAIL_KINDS = ["PAYMENT_CONFIRMATION", "REFUND_NOTICE"] as const;
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

/** A heading and its lines: one block of the e-mail, the same in text and HTML. */
export interface EmailSection {
  heading: string;
  lines: string[];
}

/** The parts of an e-mail, in order, in the model's language. */
export interface EmailParts {
  subject: string;
  heading: string;
  intro: string;
  sections: EmailSection[];
  footer: string[];
}

function labelled(label: string, value: string): string {
  return `${label}: ${value}`;
}

function orderSection(model: EmailModel, t: Translator): EmailSection {
  const lines = model.lines.map((line) =>
    t.t("email.order.line", {
      name: line.name,
      quantity: line.quantity,
      unitAmount: t.money(line.unitAmount, model.currency),
    })
  );
  return {
    heading: `${t.t("email.order.heading")} (${
      t.t("email.order.items", { count: model.lines.length })
    })`,
    lines: [...lines, labelled(t.t("email.order.total"), t.money(model.total, model.currency))],
  };
}

function sellerSection(seller: Seller, t: Translator): EmailSection {
  const contact = seller.contactEmail === null ? [] : [
    seller.contactPhone === null
      ? t.t("email.seller.contact", { email: seller.contactEmail })
      : t.t("email.seller.contactWithPhone", {
        email: seller.contactEmail,
        phone: seller.contactPhone,
      }),
  ];
  return {
    heading: t.t("email.seller.heading"),
    lines: [
      seller.name,
      ...seller.addressLines,
      ...(seller.taxId === null ? [] : [t.t("email.seller.taxId", { taxId: seller.taxId })]),
      ...contact,
    ],
  };
}

/** Lays an e-mail out in its language: the same parts feed the text and the HTML body. */
export function emailParts(model: EmailModel): EmailParts {
  const t = translator(model.language);
  const shop = model.seller.name;
  const date = t.dateTime(model.paidAt);
  const details: EmailSection = {
    heading: t.t("email.details.heading"),
    lines: [
      labelled(t.t("email.details.date"), date),
      labelled(t.t("email.details.paymentId"), model.paymentId),
      t.t("email.details.method"),
    ],
  };
  const invoice: EmailSection[] = model.invoice
    ? [{
      heading: t.t("email.invoice.heading"),
      lines: [t.t("email.invoice.requested", model.invoice)],
    }]
    : [];
  const footer = [
    ...(model.seller.contactEmail === null ? [] : [t.t("email.footer.reply")]),
    t.t("email.footer.sentBy", { shop }),
  ];
  if (model.kind === "REFUND_NOTICE" && model.refund) {
    const { refund } = model;
    return {
      subject: t.t("email.refund.subject", { shop }),
      heading: t.t("email.refund.heading"),
      intro: t.t("email.refund.intro", {
        amount: t.money(refund.amount, model.currency),
        date,
      }),
      sections: [
        {
          heading: t.t("email.refund.details"),
          lines: [
            labelled(t.t("email.refund.amount"), t.money(refund.amount, model.currency)),
            labelled(t.t("email.refund.refundId"), refund.refundId),
          ],
        },
        orderSection(model, t),
        details,
        sellerSection(model.seller, t),
      ],
      footer,
    };
  }
  return {
    subject: t.t("email.confirmation.subject", { shop }),
    heading: t.t("email.confirmation.heading"),
    intro: t.t("email.confirmation.intro", { amount: t.money(model.total, model.currency) }),
    sections: [orderSection(model, t), details, ...invoice, sellerSection(model.seller, t)],
    footer,
  };
}

/** The plain-text body: the same parts as the HTML, one per paragraph. */
export function emailText(parts: EmailParts): string {
  return [
    parts.heading,
    parts.intro,
    ...parts.sections.map((section) => [section.heading, ...section.lines].join("\n")),
    parts.footer.join("\n"),
  ].join("\n\n") + "\n";
}
