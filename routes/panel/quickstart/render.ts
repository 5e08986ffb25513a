import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import {
  findQuickstartReceiver,
  QUICKSTART_CODE,
  QUICKSTART_OFFER,
  quickstartSamples,
} from "../../../lib/panel/quickstart.ts";
import {
  quickstartAllowlistRequest,
  quickstartCheckoutRequest,
} from "../../../lib/panel/quickstart_steps.ts";
import { PREVIEW_HREF, previewUrl } from "../checkout/href.ts";
import { panelQuickstart } from "../../../lib/i18n/en/panel_quickstart.ts";
import type { Translator } from "../../../lib/i18n/mod.ts";
import type { QuickStartWords } from "../../../islands/QuickStart.tsx";
import { orgCtx, type PanelContext, translatorOf } from "../kit/context.ts";
import { renderPanel } from "../kit/render.tsx";
import { QUICKSTART_HREF } from "./href.ts";
import { QuickstartElsewherePage, QuickstartPage } from "./pages.tsx";

/** The island's words, every key of its catalogue, in the request's language. */
function quickStartWords(tr: Translator): QuickStartWords {
  const keys = Object.keys(panelQuickstart) as (keyof typeof panelQuickstart)[];
  return Object.fromEntries(keys.map((key) => [key, tr.t(key)])) as QuickStartWords;
}

/** The Quick Start, or in production where to find it. */
export async function renderQuickstart(services: Services, c: PanelContext): Promise<Response> {
  const { config } = services;
  const tr = translatorOf(c);
  if (services.environment !== "sandbox") {
    return renderPanel(services, c, {
      title: tr.t("panel.qs.page.title"),
      current: "quickstart",
      body: h(QuickstartElsewherePage, {
        sandboxUrl: `${config.sandboxPublicUrl}${QUICKSTART_HREF}`,
      }),
    });
  }
  const ctx = orgCtx(c);
  const checkoutRequest = quickstartCheckoutRequest(previewUrl(services));
  return renderPanel(services, c, {
    title: tr.t("panel.qs.page.title"),
    current: "quickstart",
    body: h(QuickstartPage, {
      orgName: c.get("session").org.name,
      quickStart: {
        baseUrl: config.publicUrl,
        runUrl: `${QUICKSTART_HREF}/run`,
        watchUrl: `${QUICKSTART_HREF}/watch`,
        referenceUrl: "/panel/reference",
        webhooksUrl: "/panel/developers/webhooks",
        paymentsUrl: "/panel/payments",
        previewUrl: PREVIEW_HREF,
        receiver: await findQuickstartReceiver(ctx),
        offerRequest: { ...QUICKSTART_OFFER },
        checkoutRequest,
        allowlistRequest: await quickstartAllowlistRequest(ctx, checkoutRequest.embedLink),
        code: QUICKSTART_CODE,
        words: quickStartWords(tr),
        samples: quickstartSamples(config.publicUrl, ctx.now(), checkoutRequest.embedLink),
      },
    }),
  });
}
