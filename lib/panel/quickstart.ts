import {
  findEndpointsWithUrl,
  findInboxOfOrganisation,
  insertInbox,
} from "../../db/sandbox_inbox.ts";
import type { SandboxInboxRow, WebhookEndpointRow } from "../../db/schema.ts";
import type { OrgContext } from "../context.ts";
import { toCheckoutSession } from "../checkout/mod.ts";
import { newId } from "../ids.ts";
import { type CreateOfferRequest, toOffer } from "../offers.ts";
import { requireSandbox, toPayment } from "../payments/mod.ts";
import {
  createWebhookEndpointIn,
  toWebhookEndpoint,
  updateWebhookEndpointIn,
} from "../webhooks/endpoints.ts";
import { listEndpointDeliveries } from "../webhooks/delivery_log.ts";
import { listSandboxInboxRequests, sandboxInboxUrl } from "../webhooks/sandbox_inbox.ts";

/** The offer the Quick Start creates. */
export const QUICKSTART_OFFER: CreateOfferRequest = {
  name: "Quick Start coffee",
  amount: 1250,
  currency: "PLN",
  description: "Created by the Quick Start in the panel.",
};

/** The test code the Quick Start completes its checkout session with (any 777xxx succeeds). */
export const QUICKSTART_CODE = "777123";

/** The webhook receiver the Quick Start sets up: the sandbox inbox and an endpoint sending to it. */
interface QuickstartReceiver {
  inbox: SandboxInboxRow;
  url: string;
  endpoint: WebhookEndpointRow;
}

/**
 * Gives the organisation a webhook endpoint that delivers every event to its sandbox inbox,
 * creating the inbox, the endpoint, or re-enabling a disabled one, all in one write. The endpoint
 * is an ordinary one, made by the same function as the API's (Developers -> Webhooks lists it).
 */
export async function setUpQuickstartReceiver(ctx: OrgContext): Promise<QuickstartReceiver> {
  requireSandbox(ctx.services);
  return await ctx.write(async (trx) => {
    const inbox = await findInboxOfOrganisation(trx, ctx.orgId) ?? await insertInbox(trx, {
      public_id: newId("sandboxInbox"),
      org_id: ctx.orgId,
      created_at: ctx.services.clock.now(),
    });
    const url = sandboxInboxUrl(ctx.services.config.publicUrl, inbox.public_id);
    const [existing] = await findEndpointsWithUrl(trx, ctx.orgId, url);
    if (existing?.enabled === 1) return { inbox, url, endpoint: existing };
    const endpoint = existing
      ? await updateWebhookEndpointIn(trx, ctx, existing.public_id, { enabled: true })
      : await createWebhookEndpointIn(trx, ctx, {
        url,
        events: ["*"],
        description: "Quick Start: the sandbox's built-in inbox",
        enabled: true,
      });
    return { inbox, url, endpoint };
  });
}

const SAMPLE_ID = "4f9TqYcW2mJx8bN3kL6pR1sV";
/** A payment's id begins with its creation time (lib/ids.ts). */
const SAMPLE_PAYMENT_ID = "pay_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1";

/**
 * What each Quick Start call returns, before the developer runs it: the API's real shapes, the
 * checkout session's for step 5's `embedLink`.
 */
export function quickstartSamples(publicUrl: string, now: number, embedLink: string) {
  const offerRow = {
    id: 0,
    public_id: `qr_${SAMPLE_ID}`,
    org_id: 0,
    name: QUICKSTART_OFFER.name,
    description: QUICKSTART_OFFER.description ?? null,
    amount: QUICKSTART_OFFER.amount,
    currency: QUICKSTART_OFFER.currency,
    recurring_interval: null,
    recurring_interval_count: null,
    active: 1,
    metadata: "{}",
    created_at: now,
    updated_at: now,
    payment_methods: null,
  };
  const paymentRow = (status: string, at: number) => ({
    id: 0,
    public_id: SAMPLE_PAYMENT_ID,
    org_id: 0,
    offer_id: 0,
    qr_id: offerRow.public_id,
    status,
    amount: offerRow.amount,
    currency: offerRow.currency,
    quantity: 1,
    amount_refunded: 0,
    customer_email: null,
    customer_name: null,
    success_url: null,
    cancel_url: null,
    failure_code: null,
    metadata: "{}",
    expires_at: now + 30 * 60_000,
    processing_deadline_at: null,
    created_at: now,
    updated_at: at,
    processing_at: null,
    succeeded_at: null,
    failed_at: null,
    canceled_at: null,
    expired_at: null,
    version: 1,
    locale: null,
    invoice_company_name: null,
    invoice_tax_id: null,
    payment_methods: null,
    attempt_id: null,
    payment_method: null,
    bank: null,
    provider: null,
    customer_language: null,
  });
  const endpoint = toWebhookEndpoint({
    id: 0,
    public_id: `we_${SAMPLE_ID}`,
    org_id: 0,
    url: sandboxInboxUrl(publicUrl, `inb_${SAMPLE_ID}`),
    description: "Quick Start: the sandbox's built-in inbox",
    event_types: '["*"]',
    enabled: 1,
    disabled_reason: null,
    disabled_at: null,
    secret: "",
    previous_secret: null,
    previous_secret_expires_at: null,
    events_after_id: 0,
    failing_since: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  const sessionRecord = (status: string, paid: boolean) => ({
    id: 0,
    public_id: `cs_${SAMPLE_ID}`,
    org_id: 0,
    offer_id: 0,
    status,
    amount: offerRow.amount,
    currency: offerRow.currency,
    embed_link: embedLink,
    embed_origin: new URL(embedLink).origin,
    success_url: null,
    cancel_url: null,
    line_items: null,
    metadata: "{}",
    payment_id: null,
    expires_at: now + 30 * 60_000,
    created_at: now,
    updated_at: now,
    completed_at: paid ? now + 1000 : null,
    expired_at: null,
    version: paid ? 3 : 1,
    qr_id: offerRow.public_id,
    offer_name: offerRow.name,
    offer_description: offerRow.description,
    payment_public_id: paid ? `pay_${SAMPLE_ID}` : null,
    payment_status: paid ? "SUCCEEDED" : null,
    payment_failure_code: null,
    payment_processing_at: null,
    payment_customer_email: null,
    offer_payment_methods: null,
    payment_methods: null,
    locale: null,
  });
  return {
    offer: toOffer(offerRow),
    endpoint,
    payment: toPayment(paymentRow("PENDING", now), publicUrl),
    session: toCheckoutSession(sessionRecord("OPEN", false), publicUrl),
    completed: toCheckoutSession(sessionRecord("COMPLETED", true), publicUrl),
  };
}

/** The receiver an earlier Quick Start set up, if its endpoint is still enabled. */
export async function findQuickstartReceiver(
  ctx: OrgContext,
): Promise<{ endpointId: string; url: string } | null> {
  const inbox = await findInboxOfOrganisation(ctx.db, ctx.orgId);
  if (!inbox) return null;
  const url = sandboxInboxUrl(ctx.services.config.publicUrl, inbox.public_id);
  const [endpoint] = await findEndpointsWithUrl(ctx.db, ctx.orgId, url);
  return endpoint?.enabled === 1 ? { endpointId: endpoint.public_id, url } : null;
}

/** What the last step watches: the receiver endpoint's deliveries and what reached the inbox. */
export async function quickstartFeed(ctx: OrgContext, endpointId: string) {
  const [deliveries, inbox] = await Promise.all([
    listEndpointDeliveries(ctx, endpointId, { limit: 10 }),
    listSandboxInboxRequests(ctx, 10),
  ]);
  return {
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
  };
}
