import type { Kysely } from "kysely";
import { findImportMapping, saveImportMapping } from "../../db/config_transfer.ts";
import { findOffer } from "../../db/offers.ts";
import { findAllowedOrigins } from "../../db/checkout_settings.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { findWebhookEndpoint } from "../../db/webhook_endpoints.ts";
import { putCheckoutSettings } from "../checkout/settings.ts";
import { parseAllowedOrigin } from "../checkout/origins.ts";
import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { createOffer, CreateOfferRequest, updateOffer, UpdateOfferRequest } from "../offers.ts";
import type { HostResolver } from "../webhooks/address_policy.ts";
import {
  checkEndpointUrl,
  createWebhookEndpoint,
  updateWebhookEndpoint,
} from "../webhooks/endpoints.ts";
import { CreateWebhookEndpointRequest, UpdateWebhookEndpointRequest } from "../webhooks/schemas.ts";
import type { ConfigBody, ExportedEndpoint, ExportedOffer } from "./format.ts";

/** One thing an import creates or changes. */
type PlanChange =
  | { kind: "offer"; action: "create"; source: ExportedOffer }
  | {
    kind: "offer";
    action: "change";
    source: ExportedOffer;
    targetId: string;
    fields: string[];
    changes: UpdateOfferRequest;
  }
  | { kind: "endpoint"; action: "create"; source: ExportedEndpoint }
  | {
    kind: "endpoint";
    action: "change";
    source: ExportedEndpoint;
    targetId: string;
    fields: string[];
    changes: UpdateWebhookEndpointRequest;
  }
  | { kind: "checkout"; action: "change"; from: string[]; to: string[] };

/**
 * One thing an import creates or changes: `key` names it for a selection (`offer:qr_...`,
 * `endpoint:we_...`, `checkout`); `refusal` says why this environment would refuse it (an http
 * webhook URL in production, say), null when it would not.
 */
export type PlanItem = PlanChange & { key: string; refusal: string | null };

/** What an import would do: the items, and how many objects already match. */
export interface ImportPlan {
  file: { organisation: string; environment: string; exportedAt: string };
  items: PlanItem[];
  unchanged: number;
}

/**
 * What an import did: its plan, what it applied and left out (refused here, or not chosen),
 * every imported offer's id here, and the endpoints' new secrets.
 */
export interface ImportResult {
  plan: ImportPlan;
  applied: PlanItem[];
  leftOut: PlanItem[];
  offers: { sourceId: string; targetId: string; name: string }[];
  createdEndpoints: { sourceId: string; id: string; url: string; secret: string }[];
}

/**
 * Who imports, whether a file of another organisation is accepted, and, when given, the keys of
 * the items to apply (the panel's review lets the merchant leave items out).
 */
interface ImportOptions {
  orgSlug: string;
  allowOtherOrg: boolean;
  only?: ReadonlySet<string>;
}

type Db = Kysely<EnvironmentSchema>;

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkOrigin(file: ConfigBody, ctx: OrgContext, options: ImportOptions): void {
  if (file.organisation.slug !== options.orgSlug && !options.allowOtherOrg) {
    throw new ApiError(
      "config_file_other_organisation",
      `This file holds the configuration of '${file.organisation.slug}', not '${options.orgSlug}'; import it there, or allow another organisation's file explicitly.`,
      { param: "file" },
    );
  }
  if (file.environment === ctx.services.environment && file.organisation.slug === options.orgSlug) {
    throw new ApiError(
      "config_file_invalid",
      `This file was exported from this ${file.environment} environment; import it into the other one.`,
      { param: "file" },
    );
  }
}

function offerChanges(
  source: ExportedOffer,
  target: NonNullable<Awaited<ReturnType<typeof findOffer>>>,
) {
  const changes: UpdateOfferRequest = {};
  if (source.name !== target.name) changes.name = source.name;
  if (source.description !== target.description) changes.description = source.description;
  if (source.active !== (target.active === 1)) changes.active = source.active;
  if (!sameJson(source.metadata, JSON.parse(target.metadata))) changes.metadata = source.metadata;
  return changes;
}

async function diffOffer(
  db: Db,
  orgId: number,
  source: ExportedOffer,
): Promise<PlanChange | null> {
  const targetId = await findImportMapping(db, orgId, "OFFER", source.qrId);
  const target = targetId ? await findOffer(db, orgId, targetId) : undefined;
  if (!target) return { kind: "offer", action: "create", source };
  const recurring = target.recurring_interval === null
    ? null
    : { interval: target.recurring_interval, intervalCount: target.recurring_interval_count ?? 1 };
  if (
    source.amount !== target.amount || source.currency !== target.currency ||
    !sameJson(source.recurring, recurring)
  ) {
    // NOTE: an offer's price never changes once customers may have paid it; a new price is a
    // new offer, made deliberately, never by an import.
    throw new ApiError(
      "state_conflict",
      `Offer '${source.name}' (${source.qrId}) was imported as ${target.public_id} with another price or billing period; prices never change, so create a new offer in the source environment and export again.`,
      { param: "offers" },
    );
  }
  const changes = offerChanges(source, target);
  const fields = Object.keys(changes);
  return fields.length === 0
    ? null
    : { kind: "offer", action: "change", source, targetId: target.public_id, fields, changes };
}

async function diffEndpoint(
  db: Db,
  orgId: number,
  source: ExportedEndpoint,
): Promise<PlanChange | null> {
  const targetId = await findImportMapping(db, orgId, "WEBHOOK_ENDPOINT", source.id);
  const target = targetId ? await findWebhookEndpoint(db, orgId, targetId) : undefined;
  if (!target) return { kind: "endpoint", action: "create", source };
  const changes: UpdateWebhookEndpointRequest = {};
  if (source.url !== target.url) changes.url = source.url;
  if (!sameJson([...new Set(source.events)], JSON.parse(target.event_types))) {
    changes.events = source.events;
  }
  if (source.description !== target.description) changes.description = source.description;
  if (source.enabled !== (target.enabled === 1)) changes.enabled = source.enabled;
  const fields = Object.keys(changes);
  return fields.length === 0
    ? null
    : { kind: "endpoint", action: "change", source, targetId: target.public_id, fields, changes };
}

/** The item's key: what the panel's review names when the merchant leaves it out. */
function keyOf(change: PlanChange): string {
  return change.kind === "offer"
    ? `offer:${change.source.qrId}`
    : change.kind === "endpoint"
    ? `endpoint:${change.source.id}`
    : "checkout";
}

/** Why this environment would refuse `change` (its API's schema, production's URL rules), or null. */
async function refusalOf(ctx: OrgContext, file: ConfigBody, change: PlanChange) {
  try {
    const input = validatedInput(file, change);
    if (change.kind === "endpoint" && "url" in input && input.url !== undefined) {
      await checkEndpointUrl(ctx.services, input.url);
    }
    if (change.kind === "checkout") {
      change.to.forEach((origin, index) =>
        parseAllowedOrigin(origin, ctx.services.environment, `checkout.allowedOrigins.${index}`)
      );
    }
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
}

async function diff(ctx: OrgContext, db: Db, file: ConfigBody): Promise<ImportPlan> {
  const changes: PlanChange[] = [];
  let unchanged = 0;
  for (const offer of file.offers) {
    const change = await diffOffer(db, ctx.orgId, offer);
    if (change) changes.push(change);
    else unchanged++;
  }
  for (const endpoint of file.webhookEndpoints) {
    const change = await diffEndpoint(db, ctx.orgId, endpoint);
    if (change) changes.push(change);
    else unchanged++;
  }
  // Origins this environment refuses stay as written: the plan shows them, marked refused.
  const to = [
    ...new Set(file.checkout.allowedOrigins.map((raw, index) => {
      try {
        return parseAllowedOrigin(
          raw,
          ctx.services.environment,
          `checkout.allowedOrigins.${index}`,
        );
      } catch {
        return raw;
      }
    })),
  ];
  const from: string[] = JSON.parse(await findAllowedOrigins(db, ctx.orgId) ?? "[]");
  if (!sameJson([...from].sort(), [...to].sort())) {
    changes.push({ kind: "checkout", action: "change", from, to });
  } else unchanged++;
  const items: PlanItem[] = [];
  for (const change of changes) {
    items.push({ ...change, key: keyOf(change), refusal: await refusalOf(ctx, file, change) });
  }
  return {
    file: {
      organisation: file.organisation.slug,
      environment: file.environment,
      exportedAt: file.exportedAt,
    },
    items,
    unchanged,
  };
}

/** What importing `file` would create and change, without writing anything. */
export async function planImport(
  ctx: OrgContext,
  file: ConfigBody,
  options: ImportOptions,
): Promise<ImportPlan> {
  checkOrigin(file, ctx, options);
  return await diff(ctx, ctx.db, file);
}

function validated<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | {
      success: false;
      error: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  value: unknown,
  where: string,
): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = [where, ...issue.path.map(String)].join(".");
  throw new ApiError("parameter_invalid", `'${param}': ${issue.message}.`, { param });
}

/** Looks every host up once before the transaction, so no DNS wait happens inside it. */
function cachingResolver(
  resolve: HostResolver,
): HostResolver & { warm(urls: string[]): Promise<void> } {
  const cache = new Map<string, Promise<string[]>>();
  const resolver = (hostname: string, signal: AbortSignal) => {
    let answer = cache.get(hostname);
    if (!answer) {
      answer = resolve(hostname, signal);
      cache.set(hostname, answer);
    }
    return answer;
  };
  return Object.assign(resolver, {
    async warm(urls: string[]) {
      await Promise.all(urls.map((url) => {
        let host: string;
        try {
          host = new URL(url).hostname;
        } catch {
          return;
        }
        return resolver(host, AbortSignal.timeout(5_000)).catch(() => {});
      }));
    },
  });
}

/** The API request an item makes, checked by the API's own schema; 400 naming the field. */
function validatedInput(file: ConfigBody, change: PlanChange) {
  if (change.kind === "offer") {
    const where = `offers.${file.offers.indexOf(change.source)}`;
    if (change.action === "change") return validated(UpdateOfferRequest, change.changes, where);
    const source = change.source;
    return validated(CreateOfferRequest, {
      name: source.name,
      amount: source.amount,
      currency: source.currency,
      ...(source.description !== null && { description: source.description }),
      ...(source.recurring !== null && { recurring: source.recurring }),
      metadata: source.metadata,
    }, where);
  }
  if (change.kind === "endpoint") {
    const where = `webhookEndpoints.${file.webhookEndpoints.indexOf(change.source)}`;
    if (change.action === "change") {
      return validated(UpdateWebhookEndpointRequest, change.changes, where);
    }
    const source = change.source;
    return validated(CreateWebhookEndpointRequest, {
      url: source.url,
      events: source.events,
      ...(source.description !== null && { description: source.description }),
      enabled: source.enabled,
    }, where);
  }
  return { allowedOrigins: change.to };
}

/** Applies one item the plan found acceptable, in the import's transaction. */
async function applyItem(
  inside: OrgContext,
  trx: Db,
  file: ConfigBody,
  item: PlanItem,
  createdEndpoints: ImportResult["createdEndpoints"],
): Promise<void> {
  const now = inside.now();
  if (item.kind === "offer" && item.action === "create") {
    const input = validatedInput(file, item) as CreateOfferRequest;
    const row = await createOffer(inside, input);
    if (!item.source.active) await updateOffer(inside, row.public_id, { active: false });
    await saveImportMapping(trx, {
      orgId: inside.orgId,
      kind: "OFFER",
      sourceId: item.source.qrId,
      targetId: row.public_id,
      now,
    });
  } else if (item.kind === "offer") {
    await updateOffer(inside, item.targetId, validatedInput(file, item) as UpdateOfferRequest);
  } else if (item.kind === "endpoint" && item.action === "create") {
    const input = validatedInput(file, item) as CreateWebhookEndpointRequest;
    const row = await createWebhookEndpoint(inside, input);
    await saveImportMapping(trx, {
      orgId: inside.orgId,
      kind: "WEBHOOK_ENDPOINT",
      sourceId: item.source.id,
      targetId: row.public_id,
      now,
    });
    createdEndpoints.push({
      sourceId: item.source.id,
      id: row.public_id,
      url: row.url,
      secret: row.secret,
    });
  } else if (item.kind === "endpoint") {
    const changes = validatedInput(file, item) as UpdateWebhookEndpointRequest;
    await updateWebhookEndpoint(inside, item.targetId, changes);
  } else {
    await putCheckoutSettings(inside, { allowedOrigins: item.to });
  }
}

/**
 * Applies `file` in one transaction: offers and endpoints it has not made yet are created (new
 * signing secrets), the ones it made before are brought in line, and the checkout allowlist is
 * replaced. Items this environment refuses, and items `options.only` leaves out, are not
 * applied and are listed as left out: a confirmed plan never fails halfway. Run twice, the
 * second run changes nothing.
 */
export async function applyImport(
  ctx: OrgContext,
  file: ConfigBody,
  options: ImportOptions,
): Promise<ImportResult> {
  checkOrigin(file, ctx, options);
  const resolver = cachingResolver(ctx.services.resolveHost);
  await resolver.warm(file.webhookEndpoints.map((endpoint) => endpoint.url));
  const services = { ...ctx.services, resolveHost: resolver };
  // NOTE: one transaction for the whole import, and the plan is computed again inside it: two
  // imports at once cannot both create the same offer, and what is applied is what was checked.
  return await ctx.services.store.write(async (trx) => {
    const inside: OrgContext = { ...ctx, services, db: trx, write: (work) => work(trx) };
    const plan = await diff(inside, trx, file);
    const createdEndpoints: ImportResult["createdEndpoints"] = [];
    const applied: PlanItem[] = [];
    const leftOut: PlanItem[] = [];
    for (const item of plan.items) {
      if (item.refusal !== null || (options.only && !options.only.has(item.key))) {
        leftOut.push(item);
        continue;
      }
      await applyItem(inside, trx, file, item, createdEndpoints);
      applied.push(item);
    }
    const offers = [];
    for (const source of file.offers) {
      const targetId = await findImportMapping(trx, ctx.orgId, "OFFER", source.qrId);
      if (targetId) offers.push({ sourceId: source.qrId, targetId, name: source.name });
    }
    return { plan, applied, leftOut, offers, createdEndpoints };
  });
}
