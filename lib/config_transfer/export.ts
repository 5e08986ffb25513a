import { listAllOffers, listAllWebhookEndpoints } from "../../db/config_transfer.ts";
import { getCheckoutSettings } from "../checkout/settings.ts";
import type { OrgContext } from "../context.ts";
import { toOffer } from "../offers.ts";
import { toWebhookEndpoint } from "../webhooks/endpoints.ts";
import { CONFIG_FORMAT, CONFIG_VERSION, type ConfigBody } from "./format.ts";

/**
 * The organisation's offers, webhook endpoints and checkout settings in this environment, as a
 * configuration file's body. Never secrets, never API keys: an import makes new ones. The
 * allowlist leaves out this instance's own origin (the Quick Start's embedded preview): it means
 * nothing in the other environment, and production refuses a plain-http localhost origin.
 */
export async function exportConfig(ctx: OrgContext, orgSlug: string): Promise<ConfigBody> {
  const offers = (await listAllOffers(ctx.db, ctx.orgId)).map(toOffer);
  const endpoints = (await listAllWebhookEndpoints(ctx.db, ctx.orgId)).map(toWebhookEndpoint);
  const { allowedOrigins } = await getCheckoutSettings(ctx);
  const ownOrigin = new URL(ctx.services.config.publicUrl).origin;
  return {
    format: CONFIG_FORMAT,
    version: CONFIG_VERSION,
    exportedAt: new Date(ctx.now()).toISOString(),
    organisation: { slug: orgSlug },
    environment: ctx.services.environment,
    offers: offers.map((offer) => ({
      qrId: offer.qrId,
      name: offer.name,
      description: offer.description,
      amount: offer.amount,
      currency: offer.currency,
      recurring: offer.recurring,
      active: offer.active,
      metadata: offer.metadata,
    })),
    webhookEndpoints: endpoints.map((endpoint) => ({
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      description: endpoint.description,
      enabled: endpoint.enabled,
    })),
    checkout: { allowedOrigins: allowedOrigins.filter((origin) => origin !== ownOrigin) },
  };
}
