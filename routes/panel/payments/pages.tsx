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
import { formatMoney } from "../../../lib/money.ts";
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
  return (
    <>
      <PageHeader
        title="Payments"
        description="Newest first. Open one for its events and refunds."
        actions={props.records && (
          <>
            <a class="button button--secondary button--small" href={EXPORT_HREF}>Export</a>
            <a class="button button--secondary button--small" href={RECONCILIATIONS_HREF}>
              Reconciliation
            </a>
          </>
        )}
      />
      <form method="get" action="/panel/payments" class="filters">
        <label class="filters__item">
          <span>Status</span>
          <select name="status">
            <option value="">Any</option>
            {PAYMENT_STATUSES.map((value) => (
              <option value={value} selected={value === status}>
                {value.charAt(0) + value.slice(1).toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <label class="filters__item">
          <span>Offer (qrId)</span>
          <input type="text" name="qrId" value={qrId ?? ""} placeholder="qr_..." />
        </label>
        <button type="submit" class="button button--secondary button--small">Filter</button>
        {(status || qrId) && <a href="/panel/payments">Clear</a>}
      </form>
      <Card>
        {props.payments.length === 0
          ? (
            <EmptyState title={status || qrId ? "No payments match" : "No payments yet"}>
              <p>
                Payments appear here when customers open an offer's link or QR code, or when your
                server calls <code>POST /payments</code>.
              </p>
            </EmptyState>
          )
          : (
            <PaymentsTable
              payments={props.payments}
              offerNames={props.offerNames}
              caption="Payments"
            />
          )}
        {next && (
          <p class="pager">
            <a href={next}>Older payments →</a>
          </p>
        )}
      </Card>
    </>
  );
}

function Timeline(props: { detail: PaymentDetail }) {
  const { events } = props.detail;
  if (events.length === 0) return <EmptyState title="No events" />;
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
              Event <code>{row.public_id}</code>
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
  return (
    <>
      <PageHeader
        title={formatMoney(payment.amount, payment.currency)}
        back={{ href: "/panel/payments", label: "Payments" }}
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
        <Card title="Events" id="events">
          <p class="muted small">
            Newest first: the payment's own, its refunds' and its checkout session's, exactly as
            webhooks deliver them.
          </p>
          <Timeline detail={view.detail} />
        </Card>
      </div>
    </>
  );
}
