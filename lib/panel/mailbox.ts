import type { MailboxRow } from "../../db/customer_emails.ts";
import { findMailboxEmail } from "../../db/customer_emails.ts";
import type { OrgContext } from "../context.ts";
import { listSandboxEmails } from "../emails/mailbox.ts";
import { notFound } from "../errors.ts";
import { requireSandbox } from "../payments/mod.ts";
import { ListQuery } from "../schemas.ts";
import { parseRequest } from "./forms.ts";

/** One page of the sandbox mailbox, newest first. */
export interface MailboxPage {
  emails: MailboxRow[];
  /** The id the next (older) page starts after, or null on the last page. */
  nextAfter: string | null;
}

/** Loads a page of the sandbox mailbox; 403 `sandbox_only` in production. */
export async function loadMailbox(
  ctx: OrgContext,
  startingAfter: string | undefined,
): Promise<MailboxPage> {
  const query = parseRequest(ListQuery, {
    limit: "25",
    ...(startingAfter && { startingAfter }),
  });
  const page = await listSandboxEmails(ctx, query);
  return {
    emails: page.data,
    nextAfter: page.hasMore ? page.data[page.data.length - 1].public_id : null,
  };
}

/** One message of the sandbox mailbox, or 404. */
export async function loadMailboxEmail(ctx: OrgContext, emailId: string): Promise<MailboxRow> {
  requireSandbox(ctx.services);
  const email = await findMailboxEmail(ctx.db, ctx.orgId, emailId);
  if (!email) throw notFound("e-mail", emailId);
  return email;
}
