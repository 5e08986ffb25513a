import type { OfferRow } from "../../db/schema.ts";
import { type CheckoutSessionRecord, listCheckoutSessions } from "../checkout/mod.ts";
import { PREVIEW_METADATA } from "../checkout/preview.ts";
import { getCheckoutSettings } from "../checkout/settings.ts";
import { SESSION_STATUSES, type SessionStatus } from "../checkout/status.ts";
import type { OrgContext } from "../context.ts";
import { listOffers } from "../offers.ts";

/** A session as the list shows it: the panel's own previews are marked as such. */
export interface ListedCheckoutSession {
  session: CheckoutSessionRecord;
  preview: boolean;
}

/** What the checkout settings page shows: the allowlist, recent sessions and offers to preview. */
export interface CheckoutSettingsOverview {
  allowedOrigins: string[];
  /** The status the list is filtered by; undefined lists every session. */
  filter: SessionStatus | undefined;
  sessions: ListedCheckoutSession[];
  hasMore: boolean;
  /** Active offers, the ones a preview can open a session of. */
  offers: OfferRow[];
}

/** The status filter of the list, from the query's `status` (anything else lists all). */
export function sessionFilterOf(value: string | undefined): SessionStatus | undefined {
  return SESSION_STATUSES.find((status) => status === value);
}

function isPreview(session: CheckoutSessionRecord): boolean {
  const metadata = JSON.parse(session.metadata) as Record<string, string>;
  return metadata.paysteadPreview === PREVIEW_METADATA.paysteadPreview;
}

/** Loads the checkout settings page: the allowlist, 20 sessions from `startingAfter`, offers. */
export async function checkoutSettingsOverview(
  ctx: OrgContext,
  query: { status?: string; startingAfter?: string },
): Promise<CheckoutSettingsOverview> {
  const filter = sessionFilterOf(query.status);
  const [settings, sessions, offers] = await Promise.all([
    getCheckoutSettings(ctx),
    listCheckoutSessions(ctx, { limit: 20, status: filter, startingAfter: query.startingAfter }),
    listOffers(ctx, { limit: 100, active: "true" }),
  ]);
  return {
    allowedOrigins: settings.allowedOrigins,
    filter,
    sessions: sessions.data.map((session) => ({ session, preview: isPreview(session) })),
    hasMore: sessions.hasMore,
    offers: offers.data,
  };
}
