import { Hono } from "hono";
import { PaymentsTable } from "../../components/panel/PaymentsTable.tsx";
import { Card, EmptyState, Notice, PageHeader } from "../../components/panel/ui.tsx";
import { VolumeChart } from "../../components/panel/VolumeChart.tsx";
import type { Services } from "../../lib/context.ts";
import { formatMoney } from "../../lib/money.ts";
import { can } from "../../lib/accounts/access.ts";
import { offerNamesOf, paymentOverview } from "../../lib/panel/insights.ts";
import { listPayments } from "../../lib/payments/mod.ts";
import { allow } from "./kit/access.ts";
import { orgCtx, type PanelEnv, subjectOf } from "./kit/context.ts";
import { noticeOf } from "./kit/forms.ts";
import { renderPanel } from "./kit/render.tsx";

const CHART_DAYS = 30;

const NOTICES = {
  welcome: "Your password is set. Welcome to Paystead.",
  joined: "You joined the organisation. Welcome.",
} as const;

function Stat(props: { label: string; value: string; hint?: string }) {
  return (
    <div class="stat">
      <p class="stat__label">{props.label}</p>
      <p class="stat__value">{props.value}</p>
      {props.hint && <p class="stat__hint">{props.hint}</p>}
    </div>
  );
}

/** The home page: 30 days of volume and success rate, and the latest payments. */
export function createHomePages(services: Services): Hono<PanelEnv> {
  return new Hono<PanelEnv>().get("/panel", allow(services, "home.view"), async (c) => {
    const ctx = orgCtx(c);
    const session = c.get("session");
    const overview = await paymentOverview(ctx, {
      days: CHART_DAYS,
      currency: c.req.query("currency")?.toUpperCase(),
    });
    const recent = await listPayments(ctx, { limit: 6 });
    const names = await offerNamesOf(ctx, recent.data);
    const notice = noticeOf(c, NOTICES);
    const subject = subjectOf(session);
    const quickstart = can("quickstart", subject, services.config.quickstartAccess);
    const { totals, currency } = overview;
    return renderPanel(services, c, {
      title: "Home",
      current: "home",
      body: (
        <>
          <PageHeader
            title={`Hello${session.name ? `, ${session.name.split(" ")[0]}` : ""}`}
            description={`${session.org.name} in the ${services.environment}, last ${CHART_DAYS} days (UTC).`}
          />
          {notice && <Notice tone="success">{notice}</Notice>}
          {currency === null
            ? (
              <Card>
                <EmptyState title="No payments in the last 30 days">
                  <p>
                    Create an offer and share its QR code or payment link
                    {quickstart
                      ? ", or run the Quick Start to take a test payment in a minute"
                      : ""}
                    .
                  </p>
                  <p class="actions">
                    <a class="button button--primary" href="/panel/offers/new">Create an offer</a>
                    {quickstart && (
                      <a class="button button--secondary" href="/panel/developers/quickstart">
                        Open the Quick Start
                      </a>
                    )}
                  </p>
                </EmptyState>
              </Card>
            )
            : (
              <>
                <div class="stats">
                  <Stat
                    label="Volume"
                    value={formatMoney(totals.volume, currency)}
                    hint="succeeded"
                  />
                  <Stat label="Successful payments" value={String(totals.succeeded)} />
                  <Stat
                    label="Success rate"
                    value={totals.successRate === null
                      ? "—"
                      : `${(totals.successRate * 100).toFixed(1)}%`}
                    hint="of payments that succeeded or failed"
                  />
                  <Stat label="Failed payments" value={String(totals.failed)} />
                </div>
                <Card
                  title="Volume and success rate"
                  id="chart"
                  actions={overview.currencies.length > 1 && (
                    <nav class="segmented" aria-label="Currency">
                      {overview.currencies.map((code) => (
                        <a
                          href={`/panel?currency=${code}`}
                          class={`segmented__item ${
                            code === currency ? "segmented__item--on" : ""
                          }`}
                          aria-current={code === currency ? "true" : undefined}
                        >
                          {code}
                        </a>
                      ))}
                    </nav>
                  )}
                >
                  <VolumeChart days={overview.days} currency={currency} />
                </Card>
              </>
            )}
          {recent.data.length > 0 && (
            <Card
              title="Latest payments"
              id="latest"
              actions={<a href="/panel/payments">All payments →</a>}
            >
              <PaymentsTable payments={recent.data} offerNames={names} caption="Latest payments" />
            </Card>
          )}
        </>
      ),
    });
  });
}
