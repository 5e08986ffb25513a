import { Hono } from "hono";
import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { offsiteOverview } from "../../../lib/panel/backups.ts";
import { homeOverview } from "../../../lib/panel/home.ts";
import type { ConnectionTest } from "../../../lib/providers/mod.ts";
import { allow } from "../kit/access.ts";
import { orgCtx, type PanelContext, type PanelEnv, translatorOf } from "../kit/context.ts";
import { noticeOf } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { HomePage } from "./pages.tsx";

const NOTICES = {
  welcome: "panel.home.welcome",
  joined: "panel.home.joined",
} as const;

async function renderHome(
  services: Services,
  c: PanelContext,
  connectionTest: ConnectionTest | null,
): Promise<Response> {
  const session = c.get("session");
  const tr = translatorOf(c);
  const home = await homeOverview(
    orgCtx(c),
    session,
    c.req.query("currency")?.toUpperCase(),
    tr,
  );
  return renderPanel(services, c, {
    title: tr.t("panel.nav.home"),
    current: "home",
    body: h(HomePage, {
      home,
      notice: noticeOf(c, NOTICES),
      csrf: session.csrfToken,
      connectionTest,
      offsite: offsiteOverview(services, session.role),
    }),
  });
}

/** The home page, mounted at `/panel`, and its checklist's provider connection test. */
export function createHomeArea(services: Services): Hono<PanelEnv> {
  return new Hono<PanelEnv>()
    .get("/", allow(services, "home.view"), (c) => renderHome(services, c, null))
    .post("/go-live/test-provider", allow(services, "developers"), async (c) => {
      const test = await services.provider.connectionTest?.() ?? null;
      return renderHome(services, c, test);
    });
}
