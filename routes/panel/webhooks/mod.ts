import { Hono } from "hono";
import { toIso } from "../../../lib/clock.ts";
import type { Services } from "../../../lib/context.ts";
import {
  endpointCreateRequestOf,
  type EndpointFormInput,
  endpointUpdateRequestOf,
  loadDeliveryLog,
  recoverRequestOf,
} from "../../../lib/panel/webhooks.ts";
import { resendEvent } from "../../../lib/webhooks/deliveries.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  revealWebhookEndpointSecret,
  rotateWebhookEndpointSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from "../../../lib/webhooks/endpoints.ts";
import { recoverEvents } from "../../../lib/webhooks/recovery.ts";
import { orgCtx, type PanelEnv } from "../kit/context.ts";
import { field, fields, type Form, readForm, redirectWith, runFormAction } from "../kit/forms.ts";
import { endpointHref, WEBHOOKS_HREF } from "./href.ts";
import { renderEndpoint, renderForm, renderList } from "./render.ts";

function endpointInput(form: Form): EndpointFormInput {
  return {
    url: field(form, "url"),
    description: field(form, "description"),
    scope: field(form, "scope"),
    events: fields(form, "events"),
  };
}

/** Developers -> Webhooks, at /panel/developers/webhooks: endpoints, secrets, delivery logs. */
export function createWebhooksArea(services: Services): Hono<PanelEnv> {
  return new Hono<PanelEnv>()
    .get("/", async (c) => {
      const page = await listWebhookEndpoints(orgCtx(c), { limit: 100 });
      return renderList(services, c, page.data);
    })
    .get("/new", (c) => renderForm(services, c, null, {}, null))
    .post("/", async (c) => {
      const form = await readForm(c);
      const result = await runFormAction(
        c,
        () => createWebhookEndpoint(orgCtx(c), endpointCreateRequestOf(endpointInput(form))),
      );
      if (!result.ok) return renderForm(services, c, null, form, result.problem);
      return redirectWith(c, endpointHref(result.value.public_id), "created");
    })
    .get("/:id", (c) => renderEndpoint(services, c, c.req.param("id")))
    // The newest page of the log, which the live log on the endpoint's page follows.
    .get(
      "/:id/deliveries",
      async (c) => c.json(await loadDeliveryLog(orgCtx(c), c.req.param("id"))),
    )
    .get("/:id/edit", async (c) => {
      const endpoint = await getWebhookEndpoint(orgCtx(c), c.req.param("id"));
      return renderForm(services, c, endpoint, {}, null);
    })
    .post("/:id", async (c) => {
      const ctx = orgCtx(c);
      const endpoint = await getWebhookEndpoint(ctx, c.req.param("id"));
      const form = await readForm(c);
      const result = await runFormAction(
        c,
        () =>
          updateWebhookEndpoint(
            ctx,
            endpoint.public_id,
            endpointUpdateRequestOf(endpointInput(form)),
          ),
      );
      if (!result.ok) return renderForm(services, c, endpoint, form, result.problem);
      return redirectWith(c, endpointHref(endpoint.public_id), "saved");
    })
    .post("/:id/enable", async (c) => {
      const id = c.req.param("id");
      const ctx = orgCtx(c);
      const before = await getWebhookEndpoint(ctx, id);
      const enabled = await updateWebhookEndpoint(ctx, id, { enabled: true });
      if (before.enabled === 1 || before.disabled_at === null) {
        return redirectWith(c, endpointHref(id), "enabled");
      }
      // Offer the time it was off for recovery: from when it was disabled to now.
      const window = `since=${toIso(before.disabled_at)}&until=${toIso(enabled.updated_at)}`;
      return redirectWith(c, `${endpointHref(id)}?${window}`, "enabled");
    })
    .post("/:id/recover", async (c) => {
      const id = c.req.param("id");
      const form = await readForm(c);
      const since = field(form, "since").trim();
      const until = field(form, "until").trim();
      const result = await runFormAction(
        c,
        () => recoverEvents(orgCtx(c), id, recoverRequestOf(since, until)),
      );
      if (!result.ok) {
        return renderEndpoint(services, c, id, {
          recover: { since, until, problem: result.problem },
        });
      }
      return redirectWith(c, endpointHref(id), "recovered");
    })
    .post("/:id/disable", async (c) => {
      const id = c.req.param("id");
      await updateWebhookEndpoint(orgCtx(c), id, { enabled: false });
      return redirectWith(c, endpointHref(id), "disabled");
    })
    .post("/:id/delete", async (c) => {
      await deleteWebhookEndpoint(orgCtx(c), c.req.param("id"));
      return redirectWith(c, WEBHOOKS_HREF, "deleted");
    })
    .post("/:id/secret", async (c) => {
      const secret = await revealWebhookEndpointSecret(orgCtx(c), c.req.param("id"));
      return renderEndpoint(services, c, c.req.param("id"), {
        secret: secret.secret,
        previousUntil: secret.previousSecretExpiresAt,
      });
    })
    .post("/:id/rotate", async (c) => {
      const rotated = await rotateWebhookEndpointSecret(orgCtx(c), c.req.param("id"));
      return renderEndpoint(services, c, rotated.public_id, {
        secret: rotated.secret,
        previousUntil: rotated.previous_secret_expires_at === null
          ? null
          : new Date(rotated.previous_secret_expires_at).toISOString(),
        rotated: true,
      });
    })
    .post("/:id/test", async (c) => {
      const id = c.req.param("id");
      await sendTestWebhook(orgCtx(c), id);
      return redirectWith(c, endpointHref(id), "test");
    })
    .post("/:id/resend", async (c) => {
      const id = c.req.param("id");
      const form = await readForm(c);
      await resendEvent(orgCtx(c), field(form, "eventId"), { endpointId: id });
      return redirectWith(c, endpointHref(id), "resent");
    });
}
