import { h } from "preact";
import { ownOrigin } from "../../../lib/checkout/mod.ts";
import type { Services } from "../../../lib/context.ts";
import { checkoutSettingsOverview } from "../../../lib/panel/checkout_settings.ts";
import { orgCtx, type PanelContext, translatorOf } from "../kit/context.ts";
import { field, type Form, type FormProblem, noticeOf } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { CHECKOUT_SETTINGS_HREF } from "./href.ts";
import { CheckoutSettingsPage } from "./pages.tsx";

const NOTICES = {
  saved: "panel.checkout.saved",
} as const;

/** The settings page, with the submitted allowlist and its problem after a refused save. */
export async function renderCheckoutSettings(
  services: Services,
  c: PanelContext,
  submitted: { form: Form; problem: FormProblem } | null,
): Promise<Response> {
  const { config } = services;
  const overview = await checkoutSettingsOverview(orgCtx(c), {
    status: c.req.query("status"),
    startingAfter: c.req.query("startingAfter"),
  });
  const sandbox = services.environment === "sandbox";
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.checkout.title"),
    current: "checkout",
    status: submitted?.problem.status,
    body: h(CheckoutSettingsPage, {
      overview,
      csrf: c.get("session").csrfToken,
      notice: noticeOf(c, NOTICES),
      originsText: submitted
        ? field(submitted.form, "origins")
        : overview.allowedOrigins.join("\n"),
      problem: submitted?.problem ?? null,
      sandbox,
      ownOrigin: ownOrigin(services),
      publicUrl: config.publicUrl,
      sandboxPageUrl: sandbox ? null : `${config.sandboxPublicUrl}${CHECKOUT_SETTINGS_HREF}`,
    }),
  });
}
