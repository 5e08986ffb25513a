import { z } from "zod";
import { findMailboxEmail, listMailbox, type MailboxRow } from "../../db/customer_emails.ts";
import { toIso } from "../clock.ts";
import type { OrgContext } from "../context.ts";
import { LANGUAGES } from "../i18n/languages.ts";
import { pageAfter } from "../pagination.ts";
import { requireSandbox } from "../payments/mod.ts";
import type { ListQuery, Page } from "../schemas.ts";
import { Timestamp } from "../schemas.ts";
import { EMAIL_KINDS } from "./facts.ts";

/** One message of the sandbox mailbox, as the customer would have received it. */
export const SandboxEmail = z.strictObject({
  emailId: z.string().meta({ example: "em_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1" }),
  kind: z.enum(EMAIL_KINDS),
  to: z.string().meta({ example: "ada@example.com" }),
  subject: z.string().meta({ example: "Potwierdzenie płatności – Sklep Kowalski sp. z o.o." }),
  text: z.string().meta({ description: "The plain-text body." }),
  html: z.string().meta({ description: "The HTML body, a whole document." }),
  language: z.enum(LANGUAGES),
  messageId: z.string().meta({
    example: "<em_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1@sandbox.example.com>",
  }),
  paymentId: z.string(),
  createdAt: Timestamp,
}).meta({
  id: "SandboxEmail",
  description: "An e-mail to a customer that the sandbox kept instead of sending (no SMTP_URL).",
});
export type SandboxEmail = z.infer<typeof SandboxEmail>;

/** The API form of a mailbox message. */
export function toSandboxEmail(row: MailboxRow): SandboxEmail {
  return {
    emailId: row.public_id,
    kind: row.kind as SandboxEmail["kind"],
    to: row.recipient,
    subject: row.subject ?? "",
    text: row.text_body ?? "",
    html: row.html_body ?? "",
    language: row.language === "en" ? "en" : "pl",
    messageId: row.message_id,
    paymentId: row.payment_public_id,
    createdAt: toIso(row.created_at),
  };
}

/** The organisation's sandbox mailbox, newest first; 403 `sandbox_only` in production. */
export function listSandboxEmails(ctx: OrgContext, query: ListQuery): Promise<Page<MailboxRow>> {
  requireSandbox(ctx.services);
  return pageAfter(
    query,
    (emailId) => findMailboxEmail(ctx.db, ctx.orgId, emailId),
    (beforeId, limit) => listMailbox(ctx.db, ctx.orgId, { beforeId, limit }),
  );
}
