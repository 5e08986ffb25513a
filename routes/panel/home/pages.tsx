import { moneyText, useT } from "../../../components/panel/i18n.ts";
import { PaymentsTable } from "../../../components/panel/PaymentsTable.tsx";
import { Card, EmptyState, Notice, PageHeader } from "../../../components/panel/ui.tsx";
import { VolumeChart } from "../../../components/panel/VolumeChart.tsx";
import { CHART_DAYS, type HomeOverview } from "../../../lib/panel/home.ts";
import type { PaymentOverview } from "../../../lib/panel/insights.ts";
import type { OffsiteOverview } from "../../../lib/panel/backups.ts";
import type { ConnectionTest } from "../../../lib/providers/mod.ts";
import { GoLiveCard } from "./go_live.tsx";
import { OffsiteCard } from "./offsite_card.tsx";

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
  const { t } = useT();
  return (
    <Card>
      <EmptyState title={t("panel.home.noPayments", { days: CHART_DAYS })}>
        <p>
          {t(props.quickstart ? "panel.home.startTextQuickstart" : "panel.home.startText")}
        </p>
        <p class="actions">
          <a class="button button--primary" href="/panel/offers/new">
            {t("panel.home.createOffer")}
          </a>
          {props.quickstart && (
            <a class="button button--secondary" href="/panel/developers/quickstart">
              {t("panel.home.openQuickstart")}
            </a>
          )}
        </p>
      </EmptyState>
    </Card>
  );
}

function CurrencySwitch(props: { currencies: string[]; current: string }) {
  const { t } = useT();
  return (
    <nav class="segmented" aria-label={t("panel.home.currency")}>
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
  const tr = useT();
  const { t } = tr;
  const rate = totals.successRate === null ? "—" : new Intl.NumberFormat(
    tr.language === "pl" ? "pl-PL" : "en-GB",
    { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 },
  ).format(totals.successRate);
  return (
    <>
      <div class="stats">
        <Stat
          label={t("panel.home.volume")}
          value={moneyText(tr, totals.volume, currency)}
          hint={t("panel.home.volumeHint")}
        />
        <Stat label={t("panel.home.succeeded")} value={String(totals.succeeded)} />
        <Stat label={t("panel.home.rate")} value={rate} hint={t("panel.home.rateHint")} />
        <Stat label={t("panel.home.failed")} value={String(totals.failed)} />
      </div>
      <Card
        title={t("panel.home.chart")}
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
  /** The answer of the go-live step's connection test, on the page its form posts to. */
  connectionTest?: ConnectionTest | null;
  offsite: OffsiteOverview | null;
}) {
  const { home } = props;
  const { currency } = home.overview;
  const { t } = useT();
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
          title={t("panel.home.latest")}
          id="latest"
          actions={<a href="/panel/payments">{t("panel.home.allPayments")}</a>}
        >
          <PaymentsTable
            payments={home.recent}
            offerNames={home.offerNames}
            caption={t("panel.home.latest")}
          />
        </Card>
      )}
      {props.offsite && <OffsiteCard offsite={props.offsite} />}
    </>
  );
}
