import { PaymentsTable } from "../../../components/panel/PaymentsTable.tsx";
import { Card, EmptyState, Notice, PageHeader } from "../../../components/panel/ui.tsx";
import { VolumeChart } from "../../../components/panel/VolumeChart.tsx";
import { formatMoney } from "../../../lib/money.ts";
import { CHART_DAYS, type HomeOverview } from "../../../lib/panel/home.ts";
import type { PaymentOverview } from "../../../lib/panel/insights.ts";
import type { ConnectionTest } from "../../../lib/providers/connection_test.ts";
import { GoLiveCard } from "./go_live.tsx";

function Stat(props: { label: string; value: string; hint?: string }) {
  return (
    <div class="stat">
      <p class="stat__label">{props.label}</p>
      <p class="stat__value">{props.value}</p>
      {props.hint && <p class="stat__hint">{props.hint}</p>}
    </div>
  );
}

/** Nothing paid yet: create an offer, or in the sandbox, take a test payment. */
function GetStartedCard(props: { quickstart: boolean }) {
  return (
    <Card>
      <EmptyState title={`No payments in the last ${CHART_DAYS} days`}>
        <p>
          Create an offer and share its QR code or payment link
          {props.quickstart ? ", or run the Quick Start to take a test payment in a minute" : ""}
          .
        </p>
        <p class="actions">
          <a class="button button--primary" href="/panel/offers/new">Create an offer</a>
          {props.quickstart && (
            <a class="button button--secondary" href="/panel/developers/quickstart">
              Open the Quick Start
            </a>
          )}
        </p>
      </EmptyState>
    </Card>
  );
}

function CurrencySwitch(props: { currencies: string[]; current: string }) {
  return (
    <nav class="segmented" aria-label="Currency">
      {props.currencies.map((code) => (
        <a
          href={`/panel?currency=${code}`}
          class={`segmented__item ${code === props.current ? "segmented__item--on" : ""}`}
          aria-current={code === props.current ? "true" : undefined}
        >
          {code}
        </a>
      ))}
    </nav>
  );
}

function Activity(props: { overview: PaymentOverview; currency: string }) {
  const { overview, currency } = props;
  const { totals } = overview;
  return (
    <>
      <div class="stats">
        <Stat label="Volume" value={formatMoney(totals.volume, currency)} hint="succeeded" />
        <Stat label="Successful payments" value={String(totals.succeeded)} />
        <Stat
          label="Success rate"
          value={totals.successRate === null ? "—" : `${(totals.successRate * 100).toFixed(1)}%`}
          hint="of payments that succeeded or failed"
        />
        <Stat label="Failed payments" value={String(totals.failed)} />
      </div>
      <Card
        title="Volume and success rate"
        id="chart"
        actions={overview.currencies.length > 1 && (
          <CurrencySwitch currencies={overview.currencies} current={currency} />
        )}
      >
        <VolumeChart days={overview.days} currency={currency} />
      </Card>
    </>
  );
}

/** The home page: the period's volume and success rate, the latest payments, or how to start. */
export function HomePage(props: {
  home: HomeOverview;
  notice: string | null;
  csrf: string;
  /** The answer of "Test the PayU connection", on the page its form posts to. */
  connectionTest?: ConnectionTest | null;
}) {
  const { home } = props;
  const { currency } = home.overview;
  return (
    <>
      <PageHeader title={home.greeting} description={home.description} />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      {home.goLive && (
        <GoLiveCard
          checklist={home.goLive}
          paid={currency !== null}
          csrf={props.csrf}
          connectionTest={props.connectionTest ?? null}
        />
      )}
      {currency !== null
        ? <Activity overview={home.overview} currency={currency} />
        : !home.goLive && <GetStartedCard quickstart={home.quickstart} />}
      {home.recent.length > 0 && (
        <Card
          title="Latest payments"
          id="latest"
          actions={<a href="/panel/payments">All payments →</a>}
        >
          <PaymentsTable
            payments={home.recent}
            offerNames={home.offerNames}
            caption="Latest payments"
          />
        </Card>
      )}
    </>
  );
}
