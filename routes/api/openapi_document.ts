import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Services } from "../../lib/context.ts";
import { eventSchemaName } from "../../lib/event_schemas.ts";
import { EVENT_TYPES } from "../../lib/events.ts";
import type { AppEnv } from "../env.ts";
import { ERROR_DESCRIPTIONS } from "./openapi.ts";

type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** A loose view of the generated OpenAPI document, enough to complete it. */
type Json = Record<string, unknown>;
type Operation = {
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  tags?: string[];
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const TAGS = [
  { name: "Offers", description: "What a customer pays for: an amount, a currency, a QR code." },
  { name: "Payments", description: "Hosted payment links and their instant-payment codes." },
  { name: "Checkout sessions", description: "The checkout embedded in the merchant's page." },
  { name: "Refunds", description: "Money given back, in full or in part." },
  { name: "Subscriptions", description: "Renewals started by payments for recurring offers." },
  { name: "Events", description: "The outbox: every change, as a list and as a live stream." },
  { name: "Webhooks", description: "Signed deliveries of events to the merchant's endpoints." },
  {
    name: "Business details",
    description: "Who customers pay: shown on the hosted page and in every customer e-mail.",
  },
  { name: "Sandbox", description: "Test-only operations: the sandbox clock and mailbox." },
  {
    name: "Exports and reconciliation",
    description:
      "Records for the accountant, and the payment provider's statements matched against them.",
  },
];

const HEADERS = {
  "Request-Id": {
    description: "The request's id, also in every error body; quote it when asking for help.",
    schema: { type: "string", pattern: "^req_[0-9A-Za-z]{24}$" },
  },
  "Retry-After": {
    description: "Seconds to wait before retrying.",
    schema: { type: "integer", minimum: 1 },
  },
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer to an earlier request with the same " +
      "Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
};

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** The statuses every operation of this shape can answer, beyond what its route lists. */
function statusesOf(method: string, path: string, operation: Operation): Set<ErrorStatus> {
  const statuses = new Set<ErrorStatus>([401, 403, 429, 503]);
  if (operation.parameters?.length || operation.requestBody || path.includes("{")) {
    statuses.add(400);
  }
  if (path.includes("{")) statuses.add(404);
  if (method === "post") statuses.add(409);
  // The 1 MiB cap and the JSON parser guard JSON bodies; a CSV statement has its own checks.
  const content = (operation.requestBody?.content ?? {}) as Json;
  const jsonOrNone = operation.requestBody === undefined || "application/json" in content;
  if ((method === "post" || method === "put" || method === "patch") && jsonOrNone) {
    statuses.add(413);
    statuses.add(415);
  }
  return statuses;
}

function completeOperation(method: string, path: string, operation: Operation): void {
  for (const status of statusesOf(method, path, operation)) {
    operation.responses[status] ??= {
      description: ERROR_DESCRIPTIONS[status],
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  for (const [status, response] of Object.entries(operation.responses)) {
    const headers: Json = { "Request-Id": headerRef("Request-Id") };
    if (status === "429" || status === "503") headers["Retry-After"] = headerRef("Retry-After");
    if (method === "post" && status.startsWith("2")) {
      headers["Idempotent-Replayed"] = headerRef("Idempotent-Replayed");
    }
    response.headers = { ...(response.headers as Json | undefined), ...headers };
  }
}

/**
 * Moves every `default` into the description: openapi-typescript's default settings make a
 * property with a default required, so a minimal request would not compile.
 */
function describeDefaults(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(describeDefaults);
  if (value === null || typeof value !== "object") return;
  const node = value as Json;
  if ("default" in node && ("type" in node || "$ref" in node || "enum" in node)) {
    const note = `Default: \`${JSON.stringify(node.default)}\`.`;
    node.description = node.description ? `${node.description} ${note}` : note;
    delete node.default;
  }
  for (const child of Object.values(node)) describeDefaults(child);
}

/** One webhook per event type: what Paystead POSTs to an endpoint, and what it expects back. */
function webhooks(): Json {
  const signatureHeaders = [
    ["webhook-id", "The event id; the same on every retry, so deduplicate on it."],
    ["webhook-timestamp", "Unix seconds of this attempt."],
    [
      "webhook-signature",
      "`v1,<base64 HMAC-SHA256 of {id}.{timestamp}.{body}>`, two " +
      "space-separated for 24 hours after a secret rotation.",
    ],
  ].map(([name, description]) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
  }));
  return Object.fromEntries(EVENT_TYPES.map((type) => [type, {
    post: {
      operationId: `${eventSchemaName(type)[0].toLowerCase()}${eventSchemaName(type).slice(1)}`,
      summary: type,
      description: `Delivered to the endpoints subscribed to ${type}, signed the Standard ` +
        "Webhooks way. Verify the raw body, answer 2xx within 15 s and do the work afterwards.",
      tags: ["Webhooks"],
      security: [],
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: { $ref: `#/components/schemas/${eventSchemaName(type)}` } },
        },
      },
      responses: {
        "200": { description: "Any 2xx within 15 seconds acknowledges the event." },
        "410": { description: "Gone: the endpoint is disabled at once." },
        default: { description: "Anything else, redirects included, is retried on the schedule." },
      },
    },
  }]));
}

const documents = new WeakMap<OpenAPIHono<AppEnv>, unknown>();

/**
 * The OpenAPI document of `api`, generated from its routes' schemas and completed once per app:
 * what `/api/v1/openapi.json` serves and the panel's API reference shows.
 */
export function buildOpenApiDocument(api: OpenAPIHono<AppEnv>, services: Services): unknown {
  let document = documents.get(api);
  if (document === undefined) {
    document = generateDocument(api, services);
    documents.set(api, document);
  }
  return document;
}

function generateDocument(api: OpenAPIHono<AppEnv>, services: Services): unknown {
  return completeDocument(api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Paystead API",
      version: "1",
      description: `The ${services.environment} environment of Paystead: offers, hosted ` +
        "payments, checkout sessions, refunds, subscriptions, events and webhooks.",
    },
    servers: [{ url: services.config.publicUrl, description: services.environment }],
    security: [{ bearerAuth: [] }],
  }));
}

/**
 * Completes the generated document: every status an operation can answer with its headers,
 * defaults that do not make fields required, tag descriptions and the webhooks section.
 */
function completeDocument<T>(document: T): T {
  const doc = document as Json & {
    paths: Record<string, Record<string, Operation>>;
    components: Json;
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      if (item[method]) completeOperation(method, path, item[method]);
    }
  }
  describeDefaults(doc.paths);
  describeDefaults(doc.components.schemas);
  doc.components.headers = HEADERS;
  doc.tags = TAGS;
  doc.webhooks = webhooks();
  return document;
}
