import { Hono } from "hono";
import { MAX_CONFIG_BYTES } from "../../lib/config_transfer/format.ts";
import { ApiError } from "../../lib/errors.ts";
import { toApiError } from "../errors.ts";
import { limitBody } from "../middleware/body_limit.ts";
import { createAccountArea } from "./account/mod.tsx";
import { API_KEYS_HREF } from "./api_keys/href.ts";
import { createApiKeysArea } from "./api_keys/mod.ts";
import { createAuthArea } from "./auth/mod.tsx";
import { createCheckoutSettingsArea } from "./checkout/mod.ts";
import { CHECKOUT_SETTINGS_HREF } from "./checkout/href.ts";
import { createConfigTransferArea } from "./config_transfer/mod.ts";
import { CONFIG_TRANSFER_HREF } from "./config_transfer/href.ts";
import { createDevelopersArea } from "./developers/mod.ts";
import { MAILBOX_HREF } from "./mailbox/href.ts";
import { createMailboxArea } from "./mailbox/mod.ts";
import { createHomeArea } from "./home/mod.ts";
import { createOfferArea } from "./offers/mod.ts";
import { createPaymentArea, createSubscriptionArea } from "./payments/mod.ts";
import { createExportArea, createReconciliationArea } from "./payment_records/mod.ts";
import { EXPORT_HREF, RECONCILIATIONS_HREF } from "./payment_records/href.ts";
import { MAX_STATEMENT_BYTES } from "../../lib/reconciliations/statement.ts";
import { createQuickstartArea } from "./quickstart/mod.ts";
import { QUICKSTART_HREF } from "./quickstart/href.ts";
import { createReferenceArea } from "./reference/mod.ts";
import { createTeamArea } from "./team/mod.tsx";
import { createWebhooksArea } from "./webhooks/mod.ts";
import { WEBHOOKS_HREF } from "./webhooks/href.ts";
import { type PanelDeps, type PanelEnv } from "./kit/context.ts";
import { renderPanelError } from "./kit/render.tsx";
import { requireSession, verifyCsrf } from "./kit/session.ts";

/** A panel form is a few kilobytes; metadata and allowlists stay far below this. */
const MAX_FORM_BYTES = 64 * 1024;
/**
 * A configuration file as the file format allows it, in a multipart form (the upload, and the
 * reviewed text sent back): the format's own limit then says what is wrong with a larger file.
 */
const MAX_CONFIG_FORM_BYTES = MAX_CONFIG_BYTES + MAX_FORM_BYTES;

/**
 * The merchant panel at `/panel` (and `/`, which leads there): sign-in and invitations, then,
 * behind a session and CSRF check, one sub-app per area. Errors render as panel pages, or as
 * JSON for the islands.
 */
export function createPanel(deps: PanelDeps): Hono<PanelEnv> {
  const { services } = deps;
  const panel = new Hono<PanelEnv>();
  panel.get("/", (c) => c.redirect("/panel", 302));
  const formLimit = limitBody(MAX_FORM_BYTES, "This form is larger than any panel form can be.");
  const configLimit = limitBody(
    MAX_CONFIG_FORM_BYTES,
    `A configuration file is at most ${MAX_CONFIG_BYTES / 1024} KiB.`,
  );
  // A provider's statement may be up to 10 MiB; past that its own check names the line it reached.
  const statementLimit = limitBody(
    MAX_STATEMENT_BYTES + MAX_FORM_BYTES,
    "This file is larger than a statement can be (10 MiB).",
  );
  panel.use(
    "/panel/*",
    (c, next) =>
      c.req.path.startsWith(`${CONFIG_TRANSFER_HREF}/`)
        ? configLimit(c, next)
        : c.req.path === RECONCILIATIONS_HREF
        ? statementLimit(c, next)
        : formLimit(c, next),
  );
  panel.route("/panel", createAuthArea(services));
  panel.use("/panel/*", requireSession(services), verifyCsrf);
  panel.route("/panel", createAccountArea(services));
  panel.route("/panel", createHomeArea(services));
  panel.route("/panel/offers", createOfferArea(services));
  // Before the payments' area, whose `/:paymentId` would take these paths.
  panel.route(EXPORT_HREF, createExportArea(services));
  panel.route(RECONCILIATIONS_HREF, createReconciliationArea(services));
  panel.route("/panel/payments", createPaymentArea(services));
  panel.route("/panel/subscriptions", createSubscriptionArea(services));
  panel.route("/panel/team", createTeamArea(services));
  panel.route("/panel/reference", createReferenceArea(deps));
  // Developers' access rule guards every page under /panel/developers, before its areas.
  panel.route("/panel/developers", createDevelopersArea(services));
  panel.route(API_KEYS_HREF, createApiKeysArea(deps));
  panel.route(WEBHOOKS_HREF, createWebhooksArea(services));
  panel.route(CHECKOUT_SETTINGS_HREF, createCheckoutSettingsArea(services));
  panel.route(QUICKSTART_HREF, createQuickstartArea(services));
  panel.route(CONFIG_TRANSFER_HREF, createConfigTransferArea(services));
  panel.route(MAILBOX_HREF, createMailboxArea(services));
  panel.all("/panel/*", (c) => {
    throw new ApiError("route_not_found", `There is no page at ${c.req.path}.`);
  });
  panel.onError((error, c) =>
    renderPanelError(services, c, toApiError(error, services.log, c.get("requestId")))
  );
  return panel;
}
