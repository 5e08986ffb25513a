import { Hono } from "hono";
import { z } from "zod";
import { Island } from "../../components/Island.tsx";
import { Card, PageHeader } from "../../components/panel/ui.tsx";
import { createApiKey, toApiKeySummary } from "../../lib/api_keys.ts";
import { ApiError } from "../../lib/errors.ts";
import { createOffer, toOffer } from "../../lib/offers.ts";
import { parseRequest } from "../../lib/panel/forms.ts";
import {
  findQuickstartReceiver,
  QUICKSTART_CODE,
  QUICKSTART_OFFER,
  quickstartSamples,
  setUpQuickstartReceiver,
} from "../../lib/panel/quickstart.ts";
import { completeCheckoutSession } from "../../lib/checkout/attempts.ts";
import { toCheckoutSession } from "../../lib/checkout/mod.ts";
import { createPreviewSession } from "../../lib/checkout/preview.ts";
import { createPayment, requireSandbox, toPayment } from "../../lib/payments/mod.ts";
import { CreatePaymentRequest } from "../../lib/payments/schemas.ts";
import { listEndpointDeliveries } from "../../lib/webhooks/delivery_log.ts";
import { toWebhookEndpoint } from "../../lib/webhooks/endpoints.ts";
import { listSandboxInboxRequests } from "../../lib/webhooks/sandbox_inbox.ts";
import { PREVIEW_HREF } from "./checkout/href.ts";
import { allow } from "./kit/access.ts";
import { orgCtx, type PanelDeps, type PanelEnv } from "./kit/context.ts";
import { renderPanel } from "./kit/render.tsx";

const BASE = "/panel/developers/quickstart";

const RunBody = z.strictObject({
  qrId: z.string().min(1).max(100).optional(),
  sessionId: z.string().min(1).max(100).optional(),
});

function required(value: string | undefined, param: string, what: string): string {
  if (!value) {
    throw new ApiError("parameter_missing", `Run the step that creates ${what} first.`, { param });
  }
  return value;
}

/**
 * The interactive Quick Start (sandbox): its page, one action per step, and the feed of
 * deliveries to the sandbox inbox the last step watches.
 */
export function createQuickstartPages(deps: PanelDeps): Hono<PanelEnv> {
  const { services } = deps;
  const { config, clock } = services;
  const app = new Hono<PanelEnv>();
  app.use(BASE, allow(services, "quickstart"));
  app.use(`${BASE}/*`, allow(services, "quickstart"));

  app.get(BASE, async (c) => {
    if (services.environment !== "sandbox") {
      return renderPanel(services, c, {
        title: "Quick Start",
        current: "quickstart",
        body: (
          <>
            <PageHeader title="Quick Start" />
            <Card>
              <p>
                The Quick Start takes test payments, so it runs in the sandbox, where no real money
                moves. <a href={`${config.sandboxPublicUrl}${BASE}`}>Open it in the sandbox</a>.
              </p>
            </Card>
          </>
        ),
      });
    }
    const ctx = orgCtx(c);
    const receiver = await findQuickstartReceiver(ctx);
    return renderPanel(services, c, {
      title: "Quick Start",
      current: "quickstart",
      body: (
        <>
          <PageHeader
            title="Quick Start"
            description={
              <>
                Take a payment end to end in the sandbox of{" "}
                {c.get("session").org.name}. Each step runs for real; the curl next to it does the
                same from your terminal against <code>{config.publicUrl}</code>.
              </>
            }
          />
          <Island
            name="QuickStart"
            props={{
              baseUrl: config.publicUrl,
              runUrl: `${BASE}/run`,
              watchUrl: `${BASE}/watch`,
              referenceUrl: "/panel/reference",
              webhooksUrl: "/panel/developers/webhooks",
              paymentsUrl: "/panel/payments",
              previewUrl: PREVIEW_HREF,
              receiver,
              offerRequest: { ...QUICKSTART_OFFER },
              code: QUICKSTART_CODE,
              samples: quickstartSamples(config.publicUrl, ctx.now()),
            }}
          />
        </>
      ),
    });
  });

  app.post(`${BASE}/run/:step`, async (c) => {
    // The Quick Start creates test data and pays with test codes: the sandbox's alone.
    requireSandbox(services);
    const ctx = orgCtx(c);
    const session = c.get("session");
    const body = parseRequest(RunBody, await c.req.json().catch(() => ({})));
    c.header("Cache-Control", "no-store");
    switch (c.req.param("step")) {
      case "key": {
        const created = await createApiKey(services.store, {
          orgId: session.org.id,
          name: "Quick Start",
          environment: services.environment,
          now: clock.now(),
        });
        const summary = toApiKeySummary(created.record, services.environment, clock.now());
        return c.json({
          status: 201,
          request: { method: "POST", path: "/panel/developers/api-keys" },
          response: {
            id: summary.id,
            name: summary.name,
            prefix: summary.prefix,
            lastFour: summary.lastFour,
          },
          secret: created.secret,
        }, 201);
      }
      case "offer": {
        const offer = await createOffer(ctx, QUICKSTART_OFFER);
        return c.json({
          status: 201,
          request: { method: "POST", path: "/api/v1/qr", body: QUICKSTART_OFFER },
          response: toOffer(offer),
        }, 201);
      }
      case "webhook": {
        const receiver = await setUpQuickstartReceiver(ctx);
        const request = { url: receiver.url, events: ["*"] };
        return c.json({
          status: 201,
          request: { method: "POST", path: "/api/v1/webhook-endpoints", body: request },
          response: toWebhookEndpoint(receiver.endpoint),
        }, 201);
      }
      case "payment": {
        const qrId = required(body.qrId, "qrId", "the offer");
        const payment = await createPayment(ctx, parseRequest(CreatePaymentRequest, { qrId }));
        return c.json({
          status: 201,
          request: { method: "POST", path: "/api/v1/payments", body: { qrId } },
          response: toPayment(payment, config.publicUrl),
        }, 201);
      }
      case "checkout": {
        const qrId = required(body.qrId, "qrId", "the offer");
        // Embedded on the panel's own preview page: allowed for this session alone, so the
        // merchant's allowlist stays theirs.
        const embedLink = `${config.publicUrl}${PREVIEW_HREF}`;
        const session = await createPreviewSession(ctx, qrId, embedLink);
        return c.json({
          status: 201,
          request: {
            method: "POST",
            path: `/api/v1/checkout-sessions/${qrId}`,
            body: { embedLink },
          },
          response: toCheckoutSession(session, config.publicUrl),
        }, 201);
      }
      case "complete": {
        const sessionId = required(body.sessionId, "sessionId", "the checkout session");
        const session = await completeCheckoutSession(ctx, sessionId, QUICKSTART_CODE);
        return c.json({
          status: 200,
          request: {
            method: "POST",
            path: `/api/v1/checkout-sessions/${sessionId}/complete`,
            body: { code: QUICKSTART_CODE },
          },
          response: toCheckoutSession(session, config.publicUrl),
        }, 200);
      }
      default:
        throw new ApiError(
          "route_not_found",
          `The Quick Start has no step '${c.req.param("step")}'.`,
        );
    }
  });

  app.get(`${BASE}/watch`, async (c) => {
    const ctx = orgCtx(c);
    const endpointId = c.req.query("endpoint") ?? "";
    const [deliveries, inbox] = await Promise.all([
      listEndpointDeliveries(ctx, endpointId, { limit: 10 }),
      listSandboxInboxRequests(ctx, 10),
    ]);
    c.header("Cache-Control", "no-store");
    return c.json({
      deliveries: deliveries.data.map((delivery) => ({
        id: delivery.id,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        status: delivery.status,
        attempts: delivery.attempts.map((attempt) => ({
          number: attempt.number,
          responseStatus: attempt.responseStatus,
          durationMs: attempt.durationMs,
          succeeded: attempt.succeeded,
          errorMessage: attempt.errorMessage,
        })),
      })),
      inbox: inbox.map((request) => ({
        receivedAt: new Date(request.receivedAt).toISOString(),
        eventType: request.eventType,
        webhookId: request.webhookId,
        verified: request.verified,
        verification: request.verification,
      })),
    });
  });
  return app;
}
