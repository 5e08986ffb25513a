import { Hono } from "hono";
import type { Services } from "../../../lib/context.ts";
import { allow } from "../kit/access.ts";
import { type PanelEnv } from "../kit/context.ts";
import { renderOverview, renderUpgrade } from "./render.ts";

/**
 * Developers' overview at `/panel/developers`, and Developers' access rule, which guards every
 * page under that prefix: mount this area before the others there.
 */
export function createDevelopersArea(services: Services): Hono<PanelEnv> {
  const guard = allow(services, "developers", (c) => renderUpgrade(services, c));
  return new Hono<PanelEnv>()
    .use("/", guard)
    .use("/*", guard)
    .get("/", (c) => renderOverview(services, c));
}
