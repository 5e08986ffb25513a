import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import {
  findQuickstartReceiver,
  QUICKSTART_CODE,
  QUICKSTART_OFFER,
  quickstartSamples,
} from "../../../lib/panel/quickstart.ts";
import { quickstartCheckoutRequest } from "../../../lib/panel/quickstart_steps.ts";
import { PREVIEW_HREF, previewUrl } from "../checkout/href.ts";
import { orgCtx, type PanelContext } from "../kit/context.ts";
import { renderPanel } from "../kit/render.tsx";
import { QUICKSTART_HREF } from "./href.ts";
import { QuickstartElsewherePage, QuickstartPage } from "./pages.tsx";

/** The Quick Start, or in production where to find it. */
export async function renderQuickstart(services: Services, c: PanelContext): Promise<Response> {
  const { config } = services;
  if (services.environment !== "sandbox") {
    return renderPanel(services, c, {
      title: "Quick Start",
      current: "quickstart",
      body: h(QuickstartElsewherePage, {
        sandboxUrl: `${config.sandboxPublicUrl}${QUICKSTART_HREF}`,
      }),
    });
  }
  const ctx = orgCtx(c);
  const checkoutRequest = quickstartCheckoutRequest(previewUrl(services));
  return renderPanel(services, c, {
    title: "Quick Start",
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
        code: QUICKSTART_CODE,
        samples: quickstartSamples(config.publicUrl, ctx.now(), checkoutRequest.embedLink),
      },
    }),
  });
}
