import {
  findEndpointsWithUrl,
  findInboxByPublicId,
  findInboxOfOrganisation,
  insertInboxRequest,
  listInboxRequests,
} from "../../db/sandbox_inbox.ts";
import type { SandboxInboxRequestRow, SandboxInboxRow } from "../../db/schema.ts";
import type { OrgContext, Services } from "../context.ts";
import { signingSecrets } from "./endpoints.ts";
import { signatureProblem } from "./signing.ts";

/**
 * The sandbox's own webhook receiver. A developer following the Quick Start has no public URL
 * yet, so the sandbox offers one: `{sandbox}/sandbox/webhook-inbox/{inboxId}` accepts deliveries
 * like a merchant's server would, checks their signature as merchants' code does
 * (examples/verify_webhook.ts) and keeps the newest requests for the panel to show. The random
 * id in the URL is what protects it; it exists only in the sandbox.
 */

/** How many requests an inbox keeps. */
export const INBOX_KEEP = 50;
/** The largest body an inbox stores; events are far smaller. */
export const INBOX_MAX_BODY_BYTES = 256 * 1024;

/** The URL of an inbox, on this environment's public host. */
export function sandboxInboxUrl(publicUrl: string, inboxId: string): string {
  return `${publicUrl}/sandbox/webhook-inbox/${inboxId}`;
}

const KEPT_HEADERS = [
  "content-type",
  "user-agent",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
] as const;

/** What the inbox says about one request: whether its signature verified, and how. */
async function verification(
  services: Services,
  inbox: SandboxInboxRow,
  url: string,
  body: string,
  headers: Headers,
  now: number,
): Promise<{ verified: boolean; message: string }> {
  const endpoints = await findEndpointsWithUrl(services.store.db, inbox.org_id, url);
  if (endpoints.length === 0) {
    return { verified: false, message: "No webhook endpoint of yours sends to this inbox." };
  }
  let message = "";
  for (const endpoint of endpoints) {
    const problem = signatureProblem(body, headers, signingSecrets(endpoint, now), now);
    if (problem === null) {
      return {
        verified: true,
        message: `Signature verified with the signing secret of ${endpoint.public_id}.`,
      };
    }
    message = problem;
  }
  return { verified: false, message };
}

/**
 * Receives one request at an inbox: verifies it and stores it with the newest others. Returns
 * false for an unknown inbox (or outside the sandbox), which answers 404.
 */
export async function receiveAtSandboxInbox(
  services: Services,
  inboxId: string,
  request: { body: string; headers: Headers },
): Promise<boolean> {
  if (services.environment !== "sandbox") return false;
  const inbox = await findInboxByPublicId(services.store.db, inboxId);
  if (!inbox) return false;
  const now = services.clock.now();
  const url = sandboxInboxUrl(services.config.publicUrl, inbox.public_id);
  const result = await verification(services, inbox, url, request.body, request.headers, now);
  let eventType: string | null = null;
  try {
    const parsed = JSON.parse(request.body);
    if (typeof parsed?.type === "string") eventType = parsed.type.slice(0, 100);
  } catch {
    // Not JSON: stored as it came.
  }
  const kept = Object.fromEntries(
    KEPT_HEADERS.flatMap((name) => {
      const value = request.headers.get(name);
      return value === null ? [] : [[name, value.slice(0, 1000)]];
    }),
  );
  await services.store.write((trx) =>
    insertInboxRequest(trx, {
      inbox_id: inbox.id,
      received_at: now,
      webhook_id: request.headers.get("webhook-id")?.slice(0, 100) ?? null,
      event_type: eventType,
      verified: result.verified ? 1 : 0,
      verification: result.message,
      headers: JSON.stringify(kept),
      body: request.body,
    }, INBOX_KEEP)
  );
  return true;
}

/** A request the inbox received, as the panel shows it. */
export interface InboxRequest {
  receivedAt: number;
  webhookId: string | null;
  eventType: string | null;
  verified: boolean;
  verification: string;
  headers: Record<string, string>;
  body: string;
}

function toInboxRequest(row: SandboxInboxRequestRow): InboxRequest {
  return {
    receivedAt: row.received_at,
    webhookId: row.webhook_id,
    eventType: row.event_type,
    verified: row.verified === 1,
    verification: row.verification,
    headers: JSON.parse(row.headers),
    body: row.body,
  };
}

/** The newest requests of the organisation's inbox (none if it has no inbox). */
export async function listSandboxInboxRequests(
  ctx: OrgContext,
  limit: number,
): Promise<InboxRequest[]> {
  const inbox = await findInboxOfOrganisation(ctx.db, ctx.orgId);
  if (!inbox) return [];
  return (await listInboxRequests(ctx.db, inbox.id, limit)).map(toInboxRequest);
}
