import { h } from "preact";
import type { WebhookEndpointRow } from "../../../db/schema.ts";
import type { Services } from "../../../lib/context.ts";
import { loadWebhookEndpointView } from "../../../lib/panel/webhooks.ts";
import { orgCtx, type PanelContext, translatorOf } from "../kit/context.ts";
import { type Form, type FormProblem, noticeOf } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { type EndpointPageExtras, WebhookEndpointPage } from "./endpoint_page.tsx";
import { WebhookFormPage, WebhookListPage } from "./pages.tsx";
import { isIsoTime } from "./recover_form.tsx";

/** What an action's redirect may ask a webhooks page to say. */
export const NOTICES = {
  created: "panel.webhooks.notice.created",
  saved: "panel.webhooks.notice.saved",
  enabled: "panel.webhooks.notice.enabled",
  recovered: "panel.webhooks.notice.recovered",
  disabled: "panel.webhooks.notice.disabled",
  deleted: "panel.webhooks.notice.deleted",
  test: "panel.webhooks.notice.test",
  resent: "panel.webhooks.notice.resent",
} as const;

/** The list of endpoints. */
export function renderList(services: Services, c: PanelContext, endpoints: WebhookEndpointRow[]) {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.webhooks.title"),
    current: "webhooks",
    body: h(WebhookListPage, {
      environment: services.environment,
      endpoints,
      notice: noticeOf(c, NOTICES),
    }),
  });
}

/** The form adding an endpoint (`endpoint` null) or editing one, with its problem's status. */
export function renderForm(
  services: Services,
  c: PanelContext,
  endpoint: WebhookEndpointRow | null,
  values: Form,
  problem: FormProblem | null,
) {
  return renderPanel(services, c, {
    title: translatorOf(c).t(endpoint ? "panel.webhooks.editTitle" : "panel.webhooks.addTitle"),
    current: "webhooks",
    status: problem?.status,
    body: h(WebhookFormPage, {
      endpoint,
      csrf: c.get("session").csrfToken,
      environment: services.environment,
      values,
      problem,
    }),
  });
}

/** An endpoint's page, on the log page the query asks for, with what an action revealed. */
export async function renderEndpoint(
  services: Services,
  c: PanelContext,
  endpointId: string,
  extras: Partial<EndpointPageExtras> = {},
) {
  const startingAfter = c.req.query("startingAfter");
  const view = await loadWebhookEndpointView(orgCtx(c), endpointId, startingAfter);
  // A re-enabled endpoint's page offers the time it was off (see the enable route).
  const offered = (name: string) => {
    const value = c.req.query(name);
    return isIsoTime(value) ? value : "";
  };
  return renderPanel(services, c, {
    title: view.endpoint.url,
    current: "webhooks",
    status: extras.recover?.problem?.status,
    body: h(WebhookEndpointPage, {
      ...extras,
      recover: extras.recover ??
        { since: offered("since"), until: offered("until"), problem: null },
      view,
      csrf: c.get("session").csrfToken,
      notice: noticeOf(c, NOTICES),
      newest: startingAfter === undefined,
    }),
  });
}
