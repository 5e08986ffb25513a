import { h } from "preact";
import { isUsableKeyStatus, listApiKeysOf, toApiKeySummary } from "../../../lib/api_keys.ts";
import { type PanelContext, type PanelDeps, translatorOf } from "../kit/context.ts";
import { field, type Form, type FormProblem, noticeOf } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { ApiKeysPage, type CreatedKey } from "./pages.tsx";

const NOTICES = { revoked: "panel.keys.revoked" } as const;

/** The keys page, with a new secret or a refused form when there is one. */
export async function renderKeys(
  deps: PanelDeps,
  c: PanelContext,
  extra: { created?: CreatedKey; values?: Form; problem?: FormProblem },
  status = 200,
): Promise<Response> {
  const { store, clock, environment, config } = deps.services;
  const session = c.get("session");
  const now = clock.now();
  const keys = (await listApiKeysOf(store, session.org.id))
    .map((row) => toApiKeySummary(row, environment, now));
  const active = keys.filter((key) => isUsableKeyStatus(key.status));
  return renderPanel(deps.services, c, {
    title: translatorOf(c).t("panel.keys.title"),
    current: "api-keys",
    status,
    body: h(ApiKeysPage, {
      environment,
      publicUrl: config.publicUrl,
      csrf: session.csrfToken,
      now,
      active,
      inactive: keys.filter((key) => !active.includes(key)),
      notice: noticeOf(c, NOTICES),
      created: extra.created ?? null,
      name: extra.values ? field(extra.values, "name") : "",
      problem: extra.problem ?? null,
    }),
  });
}
