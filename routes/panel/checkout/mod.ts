import { Hono } from "hono";
import { h } from "preact";
import { embedUrl, getCheckoutSession } from "../../../lib/checkout/mod.ts";
import { createPreviewSession } from "../../../lib/checkout/preview.ts";
import { CheckoutSettings } from "../../../lib/checkout/schemas.ts";
import { putCheckoutSettings } from "../../../lib/checkout/settings.ts";
import type { Services } from "../../../lib/context.ts";
import { parseRequest } from "../../../lib/panel/forms.ts";
import { orgCtx, type PanelEnv, translatorOf } from "../kit/context.ts";
import { field, readForm, redirectWith, runFormAction } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { CHECKOUT_SETTINGS_HREF, PREVIEW_HREF, previewUrl } from "./href.ts";
import { CheckoutPreviewPage } from "./pages.tsx";
import { renderCheckoutSettings } from "./render.ts";

/** The allowlist as the textarea holds it: one origin per line. */
function originsFromText(text: string): string[] {
  return text.split(/[\r\n,]+/).map((line) => line.trim()).filter((line) => line !== "");
}

/**
 * Developers -> Checkout sessions, mounted at CHECKOUT_SETTINGS_HREF: the frame-ancestors
 * allowlist, recent sessions and a live preview.
 */
export function createCheckoutSettingsArea(services: Services): Hono<PanelEnv> {
  const { config } = services;
  return new Hono<PanelEnv>()
    .get("/", (c) => renderCheckoutSettings(services, c, null))
    .post("/origins", async (c) => {
      const form = await readForm(c);
      const result = await runFormAction(c, () =>
        putCheckoutSettings(
          orgCtx(c),
          parseRequest(CheckoutSettings, {
            allowedOrigins: originsFromText(field(form, "origins")),
          }),
        ));
      if (!result.ok) return renderCheckoutSettings(services, c, { form, problem: result.problem });
      return redirectWith(c, CHECKOUT_SETTINGS_HREF, "saved");
    })
    .post("/preview", async (c) => {
      const form = await readForm(c);
      const preview = await createPreviewSession(
        orgCtx(c),
        field(form, "qrId"),
        previewUrl(services),
      );
      return c.redirect(`${PREVIEW_HREF}?session=${preview.public_id}`, 303);
    })
    .get("/preview", async (c) => {
      const session = await getCheckoutSession(orgCtx(c), c.req.query("session") ?? "");
      return renderPanel(services, c, {
        title: translatorOf(c).t("panel.checkout.previewTitle"),
        current: "checkout",
        scripts: ["embed.js"],
        // NOTE: this page alone may frame this origin (the checkout iframe); it stays unframeable.
        frameSelf: true,
        body: h(CheckoutPreviewPage, {
          session,
          embedUrl: embedUrl(config.publicUrl, session.public_id),
          csrf: c.get("session").csrfToken,
        }),
      });
    });
}
