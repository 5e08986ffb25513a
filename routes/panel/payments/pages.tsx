import { moneyText, rich, useT } from "../../../components/panel/i18n.ts";
import { PaymentsTable } from "../../../components/panel/PaymentsTable.tsx";
import {
  Card,
  DateTime,
  EmptyState,
  Id,
  Notice,
  PageHeader,
  StatusBadge,
} from "../../../components/panel/ui.tsx";
import { toEvent } from "../../../lib/events.ts";
import type { PaymentDetail } from "../../../lib/panel/insights.ts";
import type { PaymentList, PaymentView } from "../../../lib/panel/payments.ts";
import { PAYMENT_STATUSES } from "../../../lib/payments/status.ts";
import { EXPORT_HREF, RECONCILIATIONS_HREF } from "../payment_records/href.ts";
import { PaymentDetailsCard } from "./details_card.tsx";
import { EmailsCard } from "./emails_card.tsx";
import { RefundsCard, type RefundStep } from "./refunds_card.tsx";
import { SubscriptionCard } from "./subscription_card.tsx";

/** The payments, newest first, filtered by status and offer; `records`: Export and Reconciliation. */
export function PaymentListPage(props: PaymentList & { records: boolean }) {
  const { status, qrId, nextAfter } = props;
  const next = nextAfter === null ? null : `/panel/payments?${new URLSearchParams({
    ...(status && { status }),
    ...(qrId && { qrId }),
    startingAfter: nextAfter,
  })}`;
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader
        title={t("panel.payments.title")}
        description={t("panel.payments.description")}
        actions={props.records && (
          <>
            <a class="button button--secondary button--small" href={EXPORT_HREF}>
              {t("panel.payments.export")}
            </a>
            <a class="button button--secondary button--small" href={RECONCILIATIONS_HREF}>
              {t("panel.payments.reconciliation")}
            </a>
          </>
        )}
      />
      <form method="get" action="/panel/payments" class="filters">
        <label class="filters__item">
          <span>{t("panel.payments.status")}</span>
          <select name="status">
            <option value="">{t("panel.payments.any")}</option>
            {PAYMENT_STATUSES.map((value) => (
              <option value={value} selected={value === status}>
                {t(`panel.status.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <label class="filters__item">
          <span>{t("panel.payments.offer")}</span>
          <input type="text" name="qrId" value={qrId ?? ""} placeholder="qr_..." />
        </label>
        <button type="submit" class="button button--secondary button--small">
          {t("panel.payments.filter")}
        </button>
        {(status || qrId) && <a href="/panel/payments">{t("panel.payments.clear")}</a>}
      </form>
      <Card>
        {props.payments.length === 0
          ? (
            <EmptyState
              title={t(status || qrId ? "panel.payments.noMatch" : "panel.payments.none")}
            >
              <p>
                {rich(tr, "panel.payments.noneText", { call: <code>POST /payments</code> })}
              </p>
            </EmptyState>
          )
          : (
            <PaymentsTable
              payments={props.payments}
              offerNames={props.offerNames}
              caption={t("panel.payments.title")}
            />
          )}
        {next && (
          <p class="pager">
            <a href={next}>{t("panel.payments.older")}</a>
          </p>
        )}
      </Card>
    </>
  );
}

function Timeline(props: { detail: PaymentDetail }) {
  const { events } = props.detail;
  const { t } = useT();
  if (events.length === 0) return <EmptyState title={t("panel.payments.noEvents")} />;
  return (
    <ol class="timeline">
      {events.map((row) => (
        <li class="timeline__item">
          <p class="timeline__type">
            <code>{row.type}</code>
          </p>
          <p class="timeline__time">
            <DateTime at={row.created_at} />
          </p>
          <details class="timeline__details">
            <summary>
              {t("panel.payments.event")} <code>{row.public_id}</code>
            </summary>
            <pre class="json"><code>{JSON.stringify(toEvent(row), null, 2)}</code></pre>
          </details>
        </li>
      ))}
    </ol>
  );
}

/** What the signed-in person may do on a payment's page. */
export interface PaymentActions {
  refund: boolean;
  resendEmail: boolean;
  simulate: boolean;
  cancelSubscription: boolean;
}

/** One payment with its events, refunds and subscription. */
export function PaymentDetailPage(props: {
  view: PaymentView;
  notice: string | null;
  csrf: string;
  actions: PaymentActions;
  refund: RefundStep;
}) {
  const { view, csrf, actions } = props;
  const { payment } = view.detail;
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader
        title={moneyText(tr, payment.amount, payment.currency)}
        back={{ href: "/panel/payments", label: t("panel.payments.title") }}
        description={
          <>
            <StatusBadge status={payment.status} /> <Id>{payment.public_id}</Id>
          </>
        }
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      <div class="grid grid--sidebar">
        <div class="stack">
          <PaymentDetailsCard
            view={view}
            csrf={csrf}
            canCancel={actions.refund}
            canSimulate={actions.simulate}
          />
          <RefundsCard
            detail={view.detail}
            canRefund={actions.refund}
            csrf={csrf}
            step={props.refund}
          />
          <SubscriptionCard
            subscription={view.detail.subscription}
            renewals={view.renewals}
            renewsByLink={view.renewsByLink}
            canCancel={actions.cancelSubscription}
            csrf={csrf}
          />
          <EmailsCard
            paymentId={payment.public_id}
            emails={view.emails}
            canResend={actions.resendEmail}
            csrf={csrf}
          />
        </div>
        <Card title={t("panel.payments.events")} id="events">
          <p class="muted small">{t("panel.payments.eventsText")}</p>
          <Timeline detail={view.detail} />
        </Card>
      </div>
    </>
  );
}
