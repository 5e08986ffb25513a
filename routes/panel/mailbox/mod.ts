import { Hono } from "hono";
import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { loadMailbox, loadMailboxEmail } from "../../../lib/panel/mailbox.ts";
import { orgCtx, type PanelEnv, translatorOf } from "../kit/context.ts";
import { renderPanel } from "../kit/render.tsx";
import { MailboxEmailPage, MailboxListPage } from "./pages.tsx";

/**
 * The e-mail's own document, framed by its page: no script, nothing loaded from anywhere, and
 * `sandbox` again in the CSP, so it runs with an opaque origin even when opened on its own.
 */
const EMAIL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; " +
  "form-action 'none'; base-uri 'none'; frame-ancestors 'self'; sandbox";

/** The sandbox mailbox, under Developers (whose access rule guards it). */
export function createMailboxArea(services: Services): Hono<PanelEnv> {
  const { mailFrom } = services.config;
  const from = mailFrom.name === null ? mailFrom.address : `${mailFrom.name} <${mailFrom.address}>`;
  return new Hono<PanelEnv>()
    .get("/", async (c) => {
      const page = await loadMailbox(orgCtx(c), c.req.query("startingAfter") || undefined);
      return renderPanel(services, c, {
        title: translatorOf(c).t("panel.mailbox.title"),
        current: "mailbox",
        body: h(MailboxListPage, { ...page, smtp: services.config.smtp !== null }),
      });
    })
    .get("/:emailId", async (c) => {
      const email = await loadMailboxEmail(orgCtx(c), c.req.param("emailId"));
      return renderPanel(services, c, {
        title: email.subject ?? translatorOf(c).t("panel.mailbox.email"),
        current: "mailbox",
        frameSelf: true,
        body: h(MailboxEmailPage, { email, from }),
      });
    })
    .get("/:emailId/html", async (c) => {
      const email = await loadMailboxEmail(orgCtx(c), c.req.param("emailId"));
      return c.body(email.html_body ?? "", 200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": EMAIL_CSP,
        "X-Frame-Options": "SAMEORIGIN",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
      });
    });
}
