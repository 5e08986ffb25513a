import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ApiKeyAuthenticator } from "../../lib/api_keys.ts";
import type { Services } from "../../lib/context.ts";
import type { AppEnv } from "../env.ts";
import { apiRequest } from "../middleware/api_request.ts";
import { takeOrRefuse } from "../middleware/rate_limit.ts";
import { TokenBucketLimiter } from "../../lib/rate_limit.ts";
import { businessDetails } from "./business_details.ts";
import { checkoutSessions } from "./checkout_sessions.ts";
import { checkoutSettings } from "./checkout_settings.ts";
import { events } from "./events.ts";
import { exports } from "./exports.ts";
import { offers } from "./offers.ts";
import { createApiRouter } from "./openapi.ts";
import { buildOpenApiDocument } from "./openapi_document.ts";
import { paymentMethods } from "./payment_methods.ts";
import { payments, paymentsAlias } from "./payments.ts";
import { reconciliations } from "./reconciliations.ts";
import { paymentRefunds, refunds } from "./refunds.ts";
import { sandbox } from "./sandbox.ts";
import { subscriptions } from "./subscriptions.ts";
import { webhookDeliveries } from "./webhook_deliveries.ts";
import { webhookEndpoints } from "./webhook_endpoints.ts";

/** Request bodies are capped at 1 MiB. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The merchant API: `/api/v1/...`, `POST /payments` and the OpenAPI document. */
export function createApi(
  services: Services,
  authenticator: ApiKeyAuthenticator,
): OpenAPIHono<AppEnv> {
  const { rateLimitPerSecond, rateLimitPerOrgPerSecond } = services.config;
  const perApiKey = new TokenBucketLimiter({
    perSecond: rateLimitPerSecond,
    clock: services.clock,
  });
  const perOrganisation = new TokenBucketLimiter({
    perSecond: rateLimitPerOrgPerSecond,
    clock: services.clock,
  });
  const limit = (c: Context<AppEnv>) => {
    const principal = c.get("principal");
    takeOrRefuse(
      perApiKey,
      principal.apiKeyPublicId,
      `This API key is over its limit of ${rateLimitPerSecond} requests per second.`,
    );
    takeOrRefuse(
      perOrganisation,
      String(principal.orgId),
      `This organisation's API keys together are over their limit of ${rateLimitPerOrgPerSecond} ` +
        "requests per second.",
    );
  };
  const authenticated = apiRequest({
    services,
    authenticator,
    limit,
    jsonBody: { maxBytes: MAX_BODY_BYTES, tooLarge: "The request body is larger than 1 MiB." },
  });

  const v1 = createApiRouter();
  v1.use("*", authenticated);
  v1.route("/qr", offers);
  v1.route("/payments", payments);
  v1.route("/payment-methods", paymentMethods);
  v1.route("/events", events);
  v1.route("/payments", paymentRefunds);
  v1.route("/refunds", refunds);
  v1.route("/subscriptions", subscriptions);
  v1.route("/sandbox", sandbox);
  v1.route("/checkout-sessions", checkoutSessions);
  v1.route("/checkout-settings", checkoutSettings);
  v1.route("/business-details", businessDetails);
  v1.route("/events", webhookDeliveries);
  v1.route("/webhook-endpoints", webhookEndpoints);
  v1.route("/exports", exports);

  // A provider's statement is CSV of up to 10 MiB, read by its route: neither the JSON body parser nor
  // the 1 MiB cap apply, and only on these paths (a "*" would run before every other route too).
  const statements = createApiRouter();
  statements.use("/reconciliations", apiRequest({ services, authenticator, limit }));
  statements.route("/reconciliations", reconciliations);

  // Only this one path: a "*" middleware mounted at the root would guard every other page too.
  const alias = createApiRouter();
  alias.use("/payments", authenticated);
  alias.route("/", paymentsAlias);

  const api = createApiRouter();
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "An API key of this environment: `sk_sandbox_...` or `sk_production_...`.",
  });
  api.get("/api/v1/openapi.json", (c) => c.json(buildOpenApiDocument(api, services)));
  api.route("/api/v1", statements);
  api.route("/api/v1", v1);
  api.route("/", alias);
  return api;
}
