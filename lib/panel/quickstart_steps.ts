import { z } from "zod";
import { createApiKey, toApiKeySummary } from "../api_keys.ts";
import { completeCheckoutSession } from "../checkout/attempts.ts";
import { createCheckoutSession, toCheckoutSession } from "../checkout/mod.ts";
import { CreateCheckoutSessionRequest } from "../checkout/schemas.ts";
import { addAllowedOrigin, getCheckoutSettings } from "../checkout/settings.ts";
import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { createOffer, toOffer } from "../offers.ts";
import { createPayment } from "../payments/create.ts";
import { requireSandbox, toPayment } from "../payments/mod.ts";
import { CreatePaymentRequest } from "../payments/schemas.ts";
import { toWebhookEndpoint } from "../webhooks/endpoints.ts";
import { parseRequest } from "./forms.ts";
import { QUICKSTART_CODE, QUICKSTART_OFFER, setUpQuickstartReceiver } from "./quickstart.ts";

/** What a step sends along: the ids earlier steps produced. */
const StepInput = z.strictObject({
  qrId: z.string().min(1).max(100).optional(),
  sessionId: z.string().min(1).max(100).optional(),
});

/** A step's outcome: the API request it stands for, and the API's answer to it. */
interface StepResult {
  status: 200 | 201;
  request: { method: "POST"; path: string; body?: unknown };
  response: unknown;
  /** Only for the key step: the new key's secret, shown once. */
  secret?: string;
}

function required(value: string | undefined, param: string, what: string): string {
  if (!value) {
    throw new ApiError("parameter_missing", `Run the step that creates ${what} first.`, { param });
  }
  return value;
}

/**
 * The request body of step 5, and of the curl shown beside it: embedded on the panel's preview
 * page, so the developer sees the session framed.
 */
export function quickstartCheckoutRequest(previewUrl: string): { embedLink: string } {
  return { embedLink: previewUrl };
}

/**
 * The allowlist step 5's curl needs in a terminal, where the step itself does not add the preview
 * page's origin: today's origins and that one; null when it is there already.
 */
export async function quickstartAllowlistRequest(
  ctx: OrgContext,
  previewUrl: string,
): Promise<{ allowedOrigins: string[] } | null> {
  const { allowedOrigins } = await getCheckoutSettings(ctx);
  const origin = new URL(previewUrl).origin;
  return allowedOrigins.includes(origin) ? null : { allowedOrigins: [...allowedOrigins, origin] };
}

/**
 * Runs one Quick Start step for real, in the sandbox, through the functions the API uses; `body`
 * carries the ids earlier steps produced. `previewUrl` is the panel's checkout preview page, where step 5 embeds its session.
 */
export async function runQuickstartStep(
  ctx: OrgContext,
  step: string,
  body: unknown,
  previewUrl: string,
): Promise<StepResult> {
  // The Quick Start creates test data and pays with test codes: the sandbox's alone.
  requireSandbox(ctx.services);
  const input = parseRequest(StepInput, body);
  const { config, clock, environment } = ctx.services;
  switch (step) {
    case "key": {
      const created = await createApiKey(ctx.services.store, {
        orgId: ctx.orgId,
        name: "Quick Start",
        environment,
        now: clock.now(),
      });
      const summary = toApiKeySummary(created.record, environment, clock.now());
      return {
        status: 201,
        request: { method: "POST", path: "/panel/developers/api-keys" },
        response: {
          id: summary.id,
          name: summary.name,
          prefix: summary.prefix,
          lastFour: summary.lastFour,
        },
        secret: created.secret,
      };
    }
    case "offer": {
      const offer = await createOffer(ctx, QUICKSTART_OFFER);
      return {
        status: 201,
        request: { method: "POST", path: "/api/v1/qr", body: QUICKSTART_OFFER },
        response: toOffer(offer),
      };
    }
    case "webhook": {
      const receiver = await setUpQuickstartReceiver(ctx);
      return {
        status: 201,
        request: {
          method: "POST",
          path: "/api/v1/webhook-endpoints",
          body: { url: receiver.url, events: ["*"] },
        },
        response: toWebhookEndpoint(receiver.endpoint),
      };
    }
    case "payment": {
      const qrId = required(input.qrId, "qrId", "the offer");
      const { payment } = await createPayment(ctx, parseRequest(CreatePaymentRequest, { qrId }));
      return {
        status: 201,
        request: { method: "POST", path: "/api/v1/payments", body: { qrId } },
        response: toPayment(payment, config.publicUrl),
      };
    }
    case "checkout": {
      const qrId = required(input.qrId, "qrId", "the offer");
      const body = quickstartCheckoutRequest(previewUrl);
      // The curl beside this step must work as shown: its origin goes on the allowlist first.
      await addAllowedOrigin(ctx, new URL(body.embedLink).origin, "embedLink");
      const session = await createCheckoutSession(
        ctx,
        qrId,
        parseRequest(CreateCheckoutSessionRequest, body),
      );
      return {
        status: 201,
        request: { method: "POST", path: `/api/v1/checkout-sessions/${qrId}`, body },
        response: toCheckoutSession(session, config.publicUrl),
      };
    }
    case "complete": {
      const sessionId = required(input.sessionId, "sessionId", "the checkout session");
      const session = await completeCheckoutSession(ctx, sessionId, { code: QUICKSTART_CODE });
      return {
        status: 200,
        request: {
          method: "POST",
          path: `/api/v1/checkout-sessions/${sessionId}/complete`,
          body: { code: QUICKSTART_CODE },
        },
        response: toCheckoutSession(session, config.publicUrl),
      };
    }
    default:
      throw new ApiError("route_not_found", `The Quick Start has no step '${step}'.`);
  }
}
