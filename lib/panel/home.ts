import type { PanelSession } from "../accounts/sessions.ts";
import { can } from "../accounts/access.ts";
import { getBusinessDetails } from "../business_details.ts";
import { apiKeyStatus, isUsableKeyStatus, listApiKeysOf } from "../api_keys.ts";
import type { OrgContext } from "../context.ts";
import type { Translator } from "../i18n/mod.ts";
import { listPayments, type PaymentRecord } from "../payments/mod.ts";
import { type ProviderStatus, providerStatus } from "../providers/status.ts";
import { listWebhookEndpoints, MAX_ENDPOINTS_PER_ORGANISATION } from "../webhooks/endpoints.ts";
import { offerNamesOf, type PaymentOverview, paymentOverview } from "./insights.ts";

/** The home page's period. */
export const CHART_DAYS = 30;

/**
 * What production needs before it takes real payments, as the home lists it until every step
 * is done.
 */
export interface GoLiveChecklist {
  provider: ProviderStatus;
  /** Production keys that work now: active, or expiring after a roll. */
  usableApiKeys: number;
  /** Webhook endpoints that receive events. */
  enabledWebhookEndpoints: number;
  /** Whether the organisation told customers who they pay (legal name, address, contact). */
  businessDetails: boolean;
  /** Whether this process sends customer e-mails (SMTP_URL is set). */
  smtp: boolean;
}

/** Everything the home page shows. */
export interface HomeOverview {
  greeting: string;
  description: string;
  overview: PaymentOverview;
  recent: PaymentRecord[];
  offerNames: Map<number, string>;
  /** The sandbox's Quick Start, offered when nothing was paid and the viewer may open it. */
  quickstart: boolean;
  /** Production with a step still to do, to someone who sets up the integration; else null. */
  goLive: GoLiveChecklist | null;
}

/** Greets the viewer by full name, or by e-mail address when they gave no name. */
function greetingOf(tr: Translator, session: Pick<PanelSession, "name" | "email">): string {
  return tr.t("panel.home.greeting", { name: session.name ?? session.email });
}

/** Tells whether every step of the checklist is done. */
function goLiveDone(checklist: GoLiveChecklist): boolean {
  return checklist.provider.lastSuccessAt !== null && checklist.usableApiKeys > 0 &&
    checklist.enabledWebhookEndpoints > 0 && checklist.businessDetails;
}

async function goLiveChecklist(ctx: OrgContext): Promise<GoLiveChecklist> {
  const { services } = ctx;
  const now = services.clock.now();
  const [keys, endpoints, business] = await Promise.all([
    listApiKeysOf(services.store, ctx.orgId),
    listWebhookEndpoints(ctx, { limit: MAX_ENDPOINTS_PER_ORGANISATION }),
    getBusinessDetails(services.accounts, ctx.orgId),
  ]);
  return {
    provider: providerStatus(services),
    usableApiKeys: keys.filter((key) => isUsableKeyStatus(apiKeyStatus(key, now))).length,
    enabledWebhookEndpoints: endpoints.data.filter((endpoint) => endpoint.enabled === 1).length,
    businessDetails: business !== null,
    smtp: services.config.smtp !== null,
  };
}

/**
 * Loads the home page of `session`: the last CHART_DAYS days in `currency` (else the busiest),
 * the latest payments and, when nothing was paid, how to start in this environment.
 */
export async function homeOverview(
  ctx: OrgContext,
  session: PanelSession,
  currency: string | undefined,
  tr: Translator,
): Promise<HomeOverview> {
  const { services } = ctx;
  const overview = await paymentOverview(ctx, { days: CHART_DAYS, currency });
  const recent = await listPayments(ctx, { limit: 6 });
  const subject = { role: session.role, plan: session.org.plan };
  const access = services.config.quickstartAccess;
  const empty = overview.currency === null;
  const sandbox = services.environment === "sandbox";
  // NOTE: the checklist does not end with the first payment: a shop taking payments with no
  // webhook endpoint still misses what its customers paid.
  const checklist = !sandbox && can("developers", subject, access)
    ? await goLiveChecklist(ctx)
    : null;
  return {
    greeting: greetingOf(tr, session),
    description: tr.t(sandbox ? "panel.home.in.sandbox" : "panel.home.in.production", {
      org: session.org.name,
      days: CHART_DAYS,
    }),
    overview,
    recent: recent.data,
    offerNames: await offerNamesOf(ctx, recent.data),
    quickstart: empty && sandbox && can("quickstart", subject, access),
    goLive: checklist && !goLiveDone(checklist) ? checklist : null,
  };
}
