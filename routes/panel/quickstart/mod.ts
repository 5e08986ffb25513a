import { Hono } from "hono";
import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import {
  findQuickstartReceiver,
  QUICKSTART_CODE,
  QUICKSTART_OFFER,
  quickstartFeed,
  quickstartSamples,
} from "../../../lib/panel/quickstart.ts";
import {
  quickstartCheckoutRequest,
  runQuickstartStep,
} from "../../../lib/panel/quickstart_steps.ts";
import { PREVIEW_PATH } from "../checkout.tsx";
import { allow } from "../kit/access.ts";
import { orgCtx, type PanelContext, type PanelEnv } from "../kit/context.ts";
import { renderPanel } from "../kit/render.tsx";
import { QuickstartElsewherePage, QuickstartPage } from "./pages.tsx";

/** Where the area is mounted. */
export const QUICKSTART_PATH = "/panel/developers/quickstart";

/** The panel's checkout preview page, where step 5 embeds its session (and its curl says so). */
function previewUrl(services: Services): string {
  return `${services.config.publicUrl}${PREVIEW_PATH}`;
}

async function renderQuickstart(services: Services, c: PanelContext): Promise<Response> {
  const { config } = services;
  if (services.environment !== "sandbox") {
    return renderPanel(services, c, {
      title: "Quick Start",
      current: "quickstart",
      body: h(QuickstartElsewherePage, {
        sandboxUrl: `${config.sandboxPublicUrl}${QUICKSTART_PATH}`,
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
        runUrl: `${QUICKSTART_PATH}/run`,
        watchUrl: `${QUICKSTART_PATH}/watch`,
        referenceUrl: "/panel/reference",
        webhooksUrl: "/panel/developers/webhooks",
        paymentsUrl: "/panel/payments",
        previewUrl: PREVIEW_PATH,
        receiver: await findQuickstartReceiver(ctx),
        offerRequest: { ...QUICKSTART_OFFER },
        checkoutRequest,
        code: QUICKSTART_CODE,
        samples: quickstartSamples(config.publicUrl, ctx.now(), checkoutRequest.embedLink),
      },
    }),
  });
}

/**
 * The interactive Quick Start (sandbox), at QUICKSTART_PATH: its page, one action per step, and
 * the feed of deliveries to the sandbox inbox the last step watches.
 */
export function createQuickstartArea(services: Services): Hono<PanelEnv> {
  const guard = allow(services, "quickstart");
  return new Hono<PanelEnv>()
    .use("/", guard)
    .use("/*", guard)
    .get("/", (c) => renderQuickstart(services, c))
    .post("/run/:step", async (c) => {
      const body = await c.req.json().catch(() => ({}));
      c.header("Cache-Control", "no-store");
      const result = await runQuickstartStep(
        orgCtx(c),
        c.req.param("step"),
        body,
        previewUrl(services),
      );
      return c.json(result, result.status);
    })
    .get("/watch", async (c) => {
      const feed = await quickstartFeed(orgCtx(c), c.req.query("endpoint") ?? "");
      c.header("Cache-Control", "no-store");
      return c.json(feed);
    });
}
