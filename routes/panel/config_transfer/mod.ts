import { Hono } from "hono";
import { exportConfig } from "../../../lib/config_transfer/export.ts";
import { parseConfig, serializeConfig } from "../../../lib/config_transfer/format.ts";
import { applyImport, planImport } from "../../../lib/config_transfer/import.ts";
import type { Services } from "../../../lib/context.ts";
import { ApiError } from "../../../lib/errors.ts";
import { orgCtx, type PanelContext, type PanelEnv } from "../kit/context.ts";
import { field, fields, readForm, runFormAction } from "../kit/forms.ts";
import { renderPlan, renderResult, renderTransfer } from "./render.ts";

/** The uploaded file's text (the plan step) or the reviewed text (the apply step). */
async function uploadedText(c: PanelContext): Promise<string> {
  const body = await c.req.parseBody();
  const file = body.file;
  if (file instanceof File) return await file.text();
  throw new ApiError("parameter_missing", "Choose the configuration file to import.", {
    param: "file",
  });
}

function importOptions(c: PanelContext) {
  return { orgSlug: c.get("session").org.slug, allowOtherOrg: false };
}

/**
 * Developers -> Copy configuration, at CONFIG_TRANSFER_HREF: download, upload, review the plan,
 * confirm.
 */
export function createConfigTransferArea(services: Services): Hono<PanelEnv> {
  return new Hono<PanelEnv>()
    .get("/", (c) => renderTransfer(services, c, null))
    .get("/export", async (c) => {
      const slug = c.get("session").org.slug;
      const ctx = orgCtx(c);
      const text = await serializeConfig(await exportConfig(ctx, slug));
      const day = new Date(ctx.now()).toISOString().slice(0, 10);
      c.header("content-type", "application/json; charset=utf-8");
      c.header(
        "content-disposition",
        `attachment; filename="paystead-${slug}-${services.environment}-${day}.json"`,
      );
      c.header("cache-control", "no-store");
      return c.body(text);
    })
    .post("/plan", async (c) => {
      const outcome = await runFormAction(c, async () => {
        const text = await uploadedText(c);
        const plan = await planImport(orgCtx(c), await parseConfig(text), importOptions(c));
        return { text, plan };
      });
      if (!outcome.ok) {
        return renderTransfer(services, c, outcome.problem.message, outcome.problem.status);
      }
      return renderPlan(services, c, outcome.value.plan, outcome.value.text);
    })
    .post("/apply", async (c) => {
      const outcome = await runFormAction(c, async () => {
        const form = await readForm(c);
        const file = await parseConfig(field(form, "config"));
        // What the merchant left ticked on the review; the rest is left out, never failed on.
        const only = new Set(fields(form, "include"));
        return await applyImport(orgCtx(c), file, { ...importOptions(c), only });
      });
      if (!outcome.ok) {
        return renderTransfer(services, c, outcome.problem.message, outcome.problem.status);
      }
      return renderResult(services, c, outcome.value);
    });
}
