import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import type { ImportPlan, ImportResult } from "../../../lib/config_transfer/import.ts";
import { type PanelContext, translatorOf } from "../kit/context.ts";
import { renderPanel } from "../kit/render.tsx";
import { ConfigPlanPage, ConfigResultPage, ConfigTransferPage } from "./pages.tsx";

/** The download and upload page, with the problem of a refused file if there was one. */
export function renderTransfer(
  services: Services,
  c: PanelContext,
  problem: string | null,
  status = 200,
): Promise<Response> {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.config.title"),
    current: "config-transfer",
    status,
    body: h(ConfigTransferPage, {
      environment: services.environment,
      csrf: c.get("session").csrfToken,
      problem,
    }),
  });
}

/** The plan of an uploaded file, to confirm. */
export function renderPlan(services: Services, c: PanelContext, plan: ImportPlan, text: string) {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.config.reviewTitle"),
    current: "config-transfer",
    body: h(ConfigPlanPage, {
      plan,
      text,
      csrf: c.get("session").csrfToken,
      environment: services.environment,
    }),
  });
}

/** What an applied import changed. */
export function renderResult(services: Services, c: PanelContext, result: ImportResult) {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.config.importedTitle"),
    current: "config-transfer",
    body: h(ConfigResultPage, { result }),
  });
}
