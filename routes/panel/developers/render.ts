import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { can } from "../../../lib/accounts/access.ts";
import { planFor } from "../../../lib/panel/developers.ts";
import { providerStatus } from "../../../lib/providers/status.ts";
import { type PanelContext, subjectOf, translatorOf } from "../kit/context.ts";
import { renderPanel } from "../kit/render.tsx";
import { DevelopersPage, DevelopersUpgradePage } from "./pages.tsx";

/** Developers in place of the page asked for, to a FREE organisation: 403, it is refused. */
export function renderUpgrade(services: Services, c: PanelContext): Promise<Response> {
  const { org } = c.get("session");
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.dev.title"),
    current: "developers",
    status: 403,
    body: h(DevelopersUpgradePage, {
      orgName: org.name,
      orgSlug: org.slug,
      quickstartPlan: planFor("quickstart", services.config.quickstartAccess),
    }),
  });
}

/** Developers' overview. */
export function renderOverview(services: Services, c: PanelContext): Promise<Response> {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.dev.title"),
    current: "developers",
    body: h(DevelopersPage, {
      environment: services.environment,
      publicUrl: services.config.publicUrl,
      quickstart: can("quickstart", subjectOf(c.get("session")), services.config.quickstartAccess),
      providerStatus: providerStatus(services),
    }),
  });
}
