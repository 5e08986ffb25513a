import type { Kysely, Updateable } from "kysely";
import {
  cancelPendingDeliveries,
  insertWebhookDelivery,
  type WebhookDeliveryRecord,
} from "../../db/webhook_deliveries.ts";
import {
  countWebhookEndpoints,
  findWebhookEndpoint,
  findWebhookEndpointRecord,
  insertWebhookEndpoint,
  insertWebhookEndpointRecord,
  listWebhookEndpointRecords as listWebhookEndpointRecordRows,
  listWebhookEndpoints as listWebhookEndpointRows,
  updateWebhookEndpoint as updateWebhookEndpointRow,
} from "../../db/webhook_endpoints.ts";
import { latestEventId } from "../../db/webhook_fanout.ts";
import type {
  EnvironmentSchema,
  WebhookEndpointRecordRow,
  WebhookEndpointRow,
  WebhookEndpointsTable,
} from "../../db/schema.ts";
import { toIso, toIsoOrNull } from "../clock.ts";
import type { OrgContext, Services } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { recordEvent } from "../events.ts";
import { newId } from "../ids.ts";
import { pageAfter } from "../pagination.ts";
import type { ListQuery, Page } from "../schemas.ts";
import {
  checkPublicHost,
  policyScope,
  urlShapeProblem,
  webhookTargetPolicy,
} from "./address_policy.ts";
import type {
  CreateWebhookEndpointRequest,
  DisabledReason,
  UpdateWebhookEndpointRequest,
  WebhookEndpoint,
} from "./schemas.ts";
import { newDeliveryRow } from "./delivery/new_delivery.ts";
import { generateSigningSecret } from "./signing.ts";
import { TEST_EVENT_TYPE } from "./subscriptions.ts";

/** Endpoints per organisation, as at Stripe: each one multiplies the work of every event. */
export const MAX_ENDPOINTS_PER_ORGANISATION = 16;
/** How long the previous secret keeps signing after a rotation (the contract's 24 h). */
const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;
/** How long registration waits for the URL's host to resolve. */
const REGISTRATION_DNS_TIMEOUT_MS = 5_000;

/** The API form of an endpoint; the secret is never part of it. */
export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.public_id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.event_types),
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason as DisabledReason | null,
    disabledAt: toIsoOrNull(row.disabled_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** The API form of an endpoint with its current signing secret. */
export function toWebhookEndpointWithSecret(row: WebhookEndpointRow) {
  return { ...toWebhookEndpoint(row), secret: row.secret };
}

/** The API form of an endpoint record. */
export function toWebhookEndpointRecord(row: WebhookEndpointRecordRow, endpointId: string) {
  return {
    id: row.public_id,
    endpointId,
    type: "webhook_endpoint.disabled" as const,
    reason: row.reason as "GONE" | "FAILING",
    message: row.message,
    createdAt: toIso(row.created_at),
  };
}

/** The secrets that sign at `now`: the current one, and the previous one for 24 h after a rotation. */
export function signingSecrets(
  row: Pick<WebhookEndpointRow, "secret" | "previous_secret" | "previous_secret_expires_at">,
  now: number,
): string[] {
  const previousValid = row.previous_secret !== null &&
    row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now;
  return previousValid ? [row.secret, row.previous_secret!] : [row.secret];
}

/** Throws the 400 that says why `url` cannot receive this environment's webhooks. */
export async function checkEndpointUrl(services: Services, url: string): Promise<void> {
  const parsed = new URL(url);
  const policy = webhookTargetPolicy(services.config);
  const problem = urlShapeProblem(parsed, policy);
  if (problem) throw new ApiError("parameter_invalid", `'url': ${problem}.`, { param: "url" });
  if (policy === null) return;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), REGISTRATION_DNS_TIMEOUT_MS);
  try {
    const check = await checkPublicHost(parsed, services.resolveHost, deadline.signal);
    if (!check.ok) {
      throw new ApiError(
        "parameter_invalid",
        `'url': ${check.message} Webhooks ${policyScope(policy)} go only to public addresses.`,
        { param: "url" },
      );
    }
  } finally {
    clearTimeout(timer);
  }
}

function uniqueSubscriptions(events: readonly string[]): string {
  return JSON.stringify([...new Set(events)]);
}

/** Registers an endpoint with a new signing secret; it receives events recorded from now on. */
export async function createWebhookEndpoint(
  ctx: OrgContext,
  input: CreateWebhookEndpointRequest,
): Promise<WebhookEndpointRow> {
  await checkEndpointUrl(ctx.services, input.url);
  return ctx.write((trx) => insertEndpoint(trx, ctx, input));
}

/**
 * Registers an endpoint as createWebhookEndpoint does, in the caller's transaction, for a service
 * that writes more with it. Its URL must be one the service built itself (the sandbox's own
 * inbox): checking a URL resolves its host, which must not happen under the write lock.
 */
export function createWebhookEndpointIn(
  trx: Kysely<EnvironmentSchema>,
  ctx: OrgContext,
  input: CreateWebhookEndpointRequest,
): Promise<WebhookEndpointRow> {
  return insertEndpoint(trx, ctx, input);
}

async function insertEndpoint(
  trx: Kysely<EnvironmentSchema>,
  ctx: OrgContext,
  input: CreateWebhookEndpointRequest,
): Promise<WebhookEndpointRow> {
  const count = await countWebhookEndpoints(trx, ctx.orgId);
  if (count >= MAX_ENDPOINTS_PER_ORGANISATION) {
    throw new ApiError(
      "webhook_endpoint_limit_reached",
      `An organisation can have at most ${MAX_ENDPOINTS_PER_ORGANISATION} webhook endpoints; ` +
        "delete one, or subscribe an existing one to more events.",
    );
  }
  const now = ctx.now();
  return insertWebhookEndpoint(trx, {
    public_id: newId("webhookEndpoint"),
    org_id: ctx.orgId,
    url: input.url,
    description: input.description || null,
    event_types: uniqueSubscriptions(input.events),
    enabled: input.enabled ? 1 : 0,
    disabled_reason: input.enabled ? null : "MANUAL",
    disabled_at: input.enabled ? null : now,
    secret: generateSigningSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    events_after_id: await latestEventId(trx),
    failing_since: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
}

/** Gets one of the organisation's endpoints or throws 404. */
export async function getWebhookEndpoint(
  ctx: OrgContext,
  endpointId: string,
): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(ctx.db, ctx.orgId, endpointId);
  if (!row) throw notFound("webhook endpoint", endpointId, "id");
  return row;
}

async function findForWrite(
  trx: Kysely<EnvironmentSchema>,
  ctx: OrgContext,
  endpointId: string,
): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(trx, ctx.orgId, endpointId);
  if (!row) throw notFound("webhook endpoint", endpointId, "id");
  return row;
}

/** Lists the organisation's endpoints, newest first. */
export function listWebhookEndpoints(
  ctx: OrgContext,
  query: ListQuery,
): Promise<Page<WebhookEndpointRow>> {
  return pageAfter(
    query,
    (endpointId) => findWebhookEndpoint(ctx.db, ctx.orgId, endpointId),
    (beforeId, limit) => listWebhookEndpointRows(ctx.db, ctx.orgId, { beforeId, limit }),
  );
}

/**
 * Changes an endpoint. Disabling cancels its pending deliveries; enabling starts from the events
 * recorded after it (older ones can be resent), with a clean failure record.
 */
export async function updateWebhookEndpoint(
  ctx: OrgContext,
  endpointId: string,
  input: UpdateWebhookEndpointRequest,
): Promise<WebhookEndpointRow> {
  if (input.url !== undefined) await checkEndpointUrl(ctx.services, input.url);
  return ctx.write((trx) => changeEndpoint(trx, ctx, endpointId, input));
}

/**
 * Changes an endpoint as updateWebhookEndpoint does, in the caller's transaction, for a service
 * that writes more with it. Not its URL: a new one is checked before any transaction.
 */
export function updateWebhookEndpointIn(
  trx: Kysely<EnvironmentSchema>,
  ctx: OrgContext,
  endpointId: string,
  input: Omit<UpdateWebhookEndpointRequest, "url">,
): Promise<WebhookEndpointRow> {
  return changeEndpoint(trx, ctx, endpointId, input);
}

async function changeEndpoint(
  trx: Kysely<EnvironmentSchema>,
  ctx: OrgContext,
  endpointId: string,
  input: UpdateWebhookEndpointRequest,
): Promise<WebhookEndpointRow> {
  const endpoint = await findForWrite(trx, ctx, endpointId);
  const now = ctx.now();
  const changes: Updateable<WebhookEndpointsTable> = { updated_at: now };
  if (input.url !== undefined) changes.url = input.url;
  if (input.events !== undefined) changes.event_types = uniqueSubscriptions(input.events);
  if (input.description !== undefined) changes.description = input.description || null;
  if (input.enabled === true && endpoint.enabled === 0) {
    Object.assign(changes, {
      enabled: 1,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      events_after_id: await latestEventId(trx),
    });
  }
  if (input.enabled === false && endpoint.enabled === 1) {
    Object.assign(changes, {
      enabled: 0,
      disabled_reason: "MANUAL",
      disabled_at: now,
      failing_since: null,
    });
    await cancelPendingDeliveries(trx, endpoint.id, ctx.services.clock.now());
  }
  return (await updateWebhookEndpointRow(trx, endpoint.id, changes))!;
}

/**
 * Deletes an endpoint: it stays as a row so past deliveries keep naming it, but its secrets are
 * wiped and its pending deliveries canceled.
 */
export async function deleteWebhookEndpoint(
  ctx: OrgContext,
  endpointId: string,
): Promise<WebhookEndpointRow> {
  return await ctx.write(async (trx) => {
    const endpoint = await findForWrite(trx, ctx, endpointId);
    const now = ctx.now();
    await cancelPendingDeliveries(trx, endpoint.id, ctx.services.clock.now());
    return (await updateWebhookEndpointRow(trx, endpoint.id, {
      deleted_at: now,
      updated_at: now,
      secret: "",
      previous_secret: null,
      previous_secret_expires_at: null,
    }))!;
  });
}

/**
 * Gives an endpoint a new signing secret. The old one keeps signing (as a second signature) for
 * 24 hours so the receiver can switch without dropping deliveries; a second rotation within
 * that time retires the oldest secret at once.
 */
export function rotateWebhookEndpointSecret(
  ctx: OrgContext,
  endpointId: string,
): Promise<WebhookEndpointRow> {
  return ctx.write(async (trx) => {
    const endpoint = await findForWrite(trx, ctx, endpointId);
    // NOTE: the old secret's 24 hours are real time: the dispatcher signs on the system clock.
    return (await updateWebhookEndpointRow(trx, endpoint.id, {
      secret: generateSigningSecret(),
      previous_secret: endpoint.secret,
      previous_secret_expires_at: ctx.services.clock.now() + PREVIOUS_SECRET_TTL_MS,
      updated_at: ctx.now(),
    }))!;
  });
}

/** An endpoint's signing secret, for the panel's "reveal" and for a lost secret. */
export async function revealWebhookEndpointSecret(
  ctx: OrgContext,
  endpointId: string,
): Promise<{ secret: string; previousSecretExpiresAt: string | null }> {
  const endpoint = await getWebhookEndpoint(ctx, endpointId);
  const previous = signingSecrets(endpoint, ctx.services.clock.now()).length > 1;
  return {
    secret: endpoint.secret,
    previousSecretExpiresAt: previous ? toIso(endpoint.previous_secret_expires_at!) : null,
  };
}

/**
 * Sends `webhook.test` to one endpoint, even a disabled one (to check a fix before enabling
 * it): records the event and its delivery in one transaction; the queue sends it after commit.
 * A test is attempted once, never retried.
 */
export function sendTestWebhook(
  ctx: OrgContext,
  endpointId: string,
): Promise<WebhookDeliveryRecord> {
  return ctx.write(async (trx) => {
    const endpoint = await findForWrite(trx, ctx, endpointId);
    const event = await recordEvent(trx, {
      orgId: ctx.orgId,
      type: TEST_EVENT_TYPE,
      environment: ctx.services.environment,
      createdAt: ctx.now(),
      data: toWebhookEndpoint(endpoint),
    });
    // Deliveries are scheduled on real time, whatever the organisation's sandbox clock says.
    const now = ctx.services.clock.now();
    const delivery = await insertWebhookDelivery(
      trx,
      newDeliveryRow({
        orgId: ctx.orgId,
        eventId: event.id,
        endpointId: endpoint.id,
        trigger: "TEST",
        now,
      }),
    );
    return {
      ...delivery,
      event_public_id: event.public_id,
      endpoint_public_id: endpoint.public_id,
    };
  });
}

/** Lists what Paystead did to an endpoint on its own (automatic disables), newest first. */
export async function listWebhookEndpointRecords(
  ctx: OrgContext,
  endpointId: string,
  query: ListQuery,
): Promise<Page<WebhookEndpointRecordRow>> {
  const endpoint = await getWebhookEndpoint(ctx, endpointId);
  return pageAfter(
    query,
    (recordId) => findWebhookEndpointRecord(ctx.db, endpoint.id, recordId),
    (beforeId, limit) => listWebhookEndpointRecordRows(ctx.db, endpoint.id, { beforeId, limit }),
  );
}

/**
 * Disables an endpoint on Paystead's own initiative (a 410, or 5 days of failures): cancels its
 * pending deliveries and writes a `webhook_endpoint.disabled` record for the panel, all in the
 * caller's transaction.
 */
export async function disableEndpointAutomatically(
  trx: Kysely<EnvironmentSchema>,
  endpoint: Pick<WebhookEndpointRow, "id" | "org_id">,
  reason: "GONE" | "FAILING",
  message: string,
  now: number,
): Promise<void> {
  await updateWebhookEndpointRow(trx, endpoint.id, {
    enabled: 0,
    disabled_reason: reason,
    disabled_at: now,
    failing_since: null,
    updated_at: now,
  });
  await insertWebhookEndpointRecord(trx, {
    public_id: newId("webhookEndpointRecord"),
    org_id: endpoint.org_id,
    endpoint_id: endpoint.id,
    type: "webhook_endpoint.disabled",
    reason,
    message,
    created_at: now,
  });
  await cancelPendingDeliveries(trx, endpoint.id, now);
}
