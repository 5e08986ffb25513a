import { type Translator, translator } from "../i18n/mod.ts";
import type { EmailModel, Seller } from "./facts.ts";

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
  /** A button under the intro (the pay link of a renewal); a plain line in the text body. */
  action?: { label: string; url: string };
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
  if (model.kind === "RENEWAL_NOTICE" || model.kind === "RENEWAL_REMINDER") {
    return renewalParts(model, t, [sellerSection(model.seller, t)], footer);
  }
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

/** A renewal notice or reminder: the amount, the period it renews, the deadline and the link. */
function renewalParts(
  model: EmailModel,
  t: Translator,
  after: EmailSection[],
  footer: string[],
): EmailParts {
  const renewal = model.renewal;
  if (!renewal) throw new Error(`The ${model.kind} e-mail of ${model.paymentId} has no renewal.`);
  const shop = model.seller.name;
  const offer = model.lines[0]?.name ?? "";
  const amount = t.money(model.total, model.currency);
  const ends = t.dateTime(renewal.periodStart);
  const deadline = t.dateTime(renewal.expiresAt);
  const reminder = model.kind === "RENEWAL_REMINDER";
  return {
    subject: t.t(reminder ? "email.renewal.reminder.subject" : "email.renewal.notice.subject", {
      shop,
    }),
    heading: reminder
      ? t.t("email.renewal.reminder.heading")
      : t.t("email.renewal.notice.heading", { date: ends }),
    intro: reminder
      ? t.t("email.renewal.reminder.intro", { date: ends, amount, offer, deadline })
      : t.t("email.renewal.notice.intro", { amount, offer }),
    action: { label: t.t("email.renewal.action"), url: renewal.payUrl },
    sections: [
      {
        heading: t.t("email.renewal.details"),
        lines: [
          t.t("email.renewal.period", {
            start: t.dateTime(renewal.periodStart),
            end: t.dateTime(renewal.periodEnd),
          }),
          labelled(t.t("email.renewal.deadline"), deadline),
          labelled(t.t("email.details.paymentId"), model.paymentId),
          t.t("email.details.method"),
        ],
      },
      orderSection(model, t),
      ...after,
    ],
    footer,
  };
}

/** The plain-text body: the same parts as the HTML, one per paragraph. */
export function emailText(parts: EmailParts): string {
  return [
    parts.heading,
    parts.intro,
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`] : []),
    ...parts.sections.map((section) => [section.heading, ...section.lines].join("\n")),
    parts.footer.join("\n"),
  ].join("\n\n") + "\n";
}
