import { Hono } from "hono";
import { h } from "preact";
import { buildReference, type Reference } from "../../../lib/panel/reference.ts";
import { allow } from "../kit/access.ts";
import { type PanelDeps, type PanelEnv, translatorOf } from "../kit/context.ts";
import { renderPanel } from "../kit/render.tsx";
import { ReferencePage } from "./pages.tsx";

/** The API reference at `/panel/reference`, built once from this process's OpenAPI document. */
export function createReferenceArea(deps: PanelDeps): Hono<PanelEnv> {
  const { services } = deps;
  let reference: Reference | undefined;
  return new Hono<PanelEnv>().get("/", allow(services, "reference.view"), (c) => {
    const built = reference ??= buildReference(deps.openApi());
    return renderPanel(services, c, {
      title: translatorOf(c).t("panel.ref.title"),
      current: "reference",
      body: h(ReferencePage, {
        reference: built,
        server: built.server ?? services.config.publicUrl,
        environment: services.environment,
      }),
    });
  });
}
