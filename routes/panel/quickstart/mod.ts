import { Hono } from "hono";
import type { Services } from "../../../lib/context.ts";
import { quickstartFeed } from "../../../lib/panel/quickstart.ts";
import { runQuickstartStep } from "../../../lib/panel/quickstart_steps.ts";
import { allow } from "../kit/access.ts";
import { orgCtx, type PanelEnv } from "../kit/context.ts";
import { previewUrl } from "../checkout/href.ts";
import { renderQuickstart } from "./render.ts";

/**
 * The interactive Quick Start (sandbox), at QUICKSTART_HREF: its page, one action per step, and
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
