import { Hono } from "hono";
import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import {
  exportFromForm,
  type ExportKind,
  loadReconciliations,
  reconcileUpload,
} from "../../../lib/panel/payment_records.ts";
import { allow } from "../kit/access.ts";
import { orgCtx, type PanelContext, type PanelEnv, translatorOf } from "../kit/context.ts";
import { noticeOf, redirectWith, runFormAction } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { RECONCILIATIONS_HREF } from "./href.ts";
import { ExportPage, type ExportProblem, ReconciliationsPage } from "./pages.tsx";

const NOTICES = { reconciled: "panel.payments.reconciled" } as const;

function renderExport(services: Services, c: PanelContext, problem: ExportProblem | null) {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.export.title"),
    current: "payments",
    status: problem ? 400 : 200,
    body: h(ExportPage, { problem }),
  });
}

async function renderReconciliations(
  services: Services,
  c: PanelContext,
  problem: { message: string; status: number } | null,
) {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.reconciliation.title"),
    current: "payments",
    status: problem?.status ?? 200,
    body: h(ReconciliationsPage, {
      reconciliations: await loadReconciliations(orgCtx(c)),
      csrf: c.get("session").csrfToken,
      problem: problem?.message ?? null,
      notice: noticeOf(c, NOTICES),
      source: services.provider.statements?.source ?? services.provider.status.displayName,
    }),
  });
}

/** Payments -> Export, at EXPORT_HREF: the forms, and each file streamed as the API sends it. */
export function createExportArea(services: Services): Hono<PanelEnv> {
  const download = (kind: ExportKind) => async (c: PanelContext) => {
    const outcome = await runFormAction(
      c,
      () => Promise.resolve(exportFromForm(orgCtx(c), kind, (name) => c.req.query(name) ?? "")),
    );
    if (!outcome.ok) return renderExport(services, c, { kind, message: outcome.problem.message });
    const file = outcome.value;
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    });
  };
  return new Hono<PanelEnv>()
    .use("*", allow(services, "payments.records"))
    .get("/", (c) => renderExport(services, c, null))
    .get("/payments", download("payments"))
    .get("/refunds", download("refunds"));
}

/** Payments -> Reconciliation, at RECONCILIATIONS_HREF: the upload and the results. */
export function createReconciliationArea(services: Services): Hono<PanelEnv> {
  return new Hono<PanelEnv>()
    .use("*", allow(services, "payments.records"))
    .get("/", (c) => renderReconciliations(services, c, null))
    .post("/", async (c) => {
      const outcome = await runFormAction(c, async () => {
        const file = (await c.req.parseBody()).statement;
        return await reconcileUpload(orgCtx(c), file instanceof File ? file : undefined);
      });
      if (!outcome.ok) return renderReconciliations(services, c, outcome.problem);
      return redirectWith(c, RECONCILIATIONS_HREF, "reconciled");
    });
}
