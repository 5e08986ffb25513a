import { Hono } from "hono";
import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { offsiteOverview } from "../../../lib/panel/backups.ts";
import { homeOverview } from "../../../lib/panel/home.ts";
import { allow } from "../kit/access.ts";
import { orgCtx, type PanelEnv } from "../kit/context.ts";
import { noticeOf } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { HomePage } from "./pages.tsx";

const NOTICES = {
  welcome: "Your password is set. Welcome to Paystead.",
  joined: "You joined the organisation. Welcome.",
} as const;

/** The home page, mounted at `/panel`. */
export function createHomeArea(services: Services): Hono<PanelEnv> {
  return new Hono<PanelEnv>().get("/", allow(services, "home.view"), async (c) => {
    const home = await homeOverview(
      orgCtx(c),
      c.get("session"),
      c.req.query("currency")?.toUpperCase(),
    );
    return renderPanel(services, c, {
      title: "Home",
      current: "home",
      body: h(HomePage, {
        home,
        notice: noticeOf(c, NOTICES),
        offsite: offsiteOverview(services, c.get("session").role),
      }),
    });
  });
}
