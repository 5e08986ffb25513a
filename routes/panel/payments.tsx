import { Hono } from "hono";
import { PaymentsTable } from "../../components/panel/PaymentsTable.tsx";
import {
  Card,
  ConfirmAction,
  CsrfField,
  DateTime,
  EmptyState,
  Fact,
  Facts,
  Field,
  FormError,
  Id,
  Money,
  Notice,
  PageHeader,
  StatusBadge,
} from "../../components/panel/ui.tsx";
import type { Services } from "../../lib/context.ts";
import { toEvent } from "../../lib/events.ts";
import { formatMajorAmount, formatMoney } from "../../lib/money.ts";
import { can } from "../../lib/accounts/access.ts";
import { parseAmountField, parseRequest } from "../../lib/panel/forms.ts";
import { offerNamesOf, type PaymentDetail, paymentDetail } from "../../lib/panel/insights.ts";
import {
  cancelPayment,
  completePayment,
  listPayments,
  paymentUrl,
} from "../../lib/payments/mod.ts";
import { ListPaymentsQuery } from "../../lib/payments/schemas.ts";
import { PAYMENT_STATUSES } from "../../lib/payments/status.ts";
import { SANDBOX_TEST_CODES } from "../../lib/providers/sandbox.ts";
import { createRefund } from "../../lib/refunds/mod.ts";
import { CreateRefundRequest } from "../../lib/refunds/schemas.ts";
import { cancelSubscription } from "../../lib/subscriptions/mod.ts";
import { allow } from "./kit/access.ts";
import { orgCtx, type PanelContext, type PanelEnv, subjectOf } from "./kit/context.ts";
import {
  attempt,
  field,
  type Form,
  type FormProblem,
  noticeOf,
  problemFor,
  problemOfForm,
  readForm,
  redirectWith,
} from "./kit/forms.ts";
import { renderPanel } from "./kit/render.tsx";

const NOTICES = {
  refunded: "Refund created. It is PENDING until the payment method confirms, usually at once.",
  completed: "The sandbox payment was attempted with the test code.",
  canceled: "The payment was canceled.",
  "subscription-canceled": "The subscription is canceled.",
  "subscription-scheduled": "The subscription ends when the paid period does.",
} as const;

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

function RefundsCard(props: {
  detail: PaymentDetail;
  canRefund: boolean;
  csrf: string;
  values: Form;
  problem: FormProblem | null;
}) {
  const { payment, refunds } = props.detail;
  const left = payment.amount - payment.amount_refunded;
  const refundable = payment.status === "SUCCEEDED" && left > 0;
  return (
    <Card title="Refunds" id="refunds">
      {refunds.length === 0 ? <p class="muted">No refunds.</p> : (
        <div class="table-wrap">
          <table class="table table--compact">
            <caption class="visually-hidden">Refunds of this payment</caption>
            <thead>
              <tr>
                <th scope="col" class="num">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {refunds.map((refund) => (
                <tr>
                  <td class="num">
                    <Money amount={refund.amount} currency={refund.currency} />
                  </td>
                  <td>
                    <StatusBadge status={refund.status} />
                    {refund.failure_code && <span class="muted small">{refund.failure_code}</span>}
                  </td>
                  <td>{refund.reason ?? <span class="muted">—</span>}</td>
                  <td>
                    <DateTime at={refund.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {refundable && props.canRefund && (
        <form
          method="post"
          action={`/panel/payments/${payment.public_id}/refunds`}
          class="form form--inline-card"
          data-once
        >
          <CsrfField token={props.csrf} />
          <h3 class="form__title">Refund</h3>
          <FormError message={problemOfForm(props.problem, ["amount", "reason"])} />
          <div class="form__row">
            <Field
              name="amount"
              label={`Amount (${payment.currency})`}
              hint={
                <>
                  Up to <Money amount={left} currency={payment.currency} />.
                </>
              }
              error={problemFor(props.problem, "amount")}
            >
              {(attrs) => (
                <input
                  {...attrs}
                  type="text"
                  inputMode="decimal"
                  class="input--short"
                  value={typeof props.values.amount === "string"
                    ? props.values.amount
                    : formatMajorAmount(left, payment.currency)}
                />
              )}
            </Field>
            <Field
              name="reason"
              label="Reason (optional)"
              error={problemFor(props.problem, "reason")}
            >
              {(attrs) => (
                <input
                  {...attrs}
                  type="text"
                  maxLength={500}
                  placeholder="Customer returned the item"
                  value={typeof props.values.reason === "string" ? props.values.reason : ""}
                />
              )}
            </Field>
          </div>
          <button type="submit" class="button button--danger">Refund</button>
        </form>
      )}
      {payment.status === "SUCCEEDED" && left === 0 && <p class="muted">Refunded in full.</p>}
      {payment.status !== "SUCCEEDED" && (
        <p class="muted">Only a succeeded payment can be refunded.</p>
      )}
    </Card>
  );
}

function SubscriptionCard(props: { detail: PaymentDetail; canCancel: boolean; csrf: string }) {
  const subscription = props.detail.subscription;
  if (!subscription) return null;
  const canceled = subscription.status === "CANCELED";
  const action = `/panel/subscriptions/${subscription.public_id}/cancel`;
  return (
    <Card title="Subscription" id="subscription">
      <Facts>
        <Fact label="Subscription">
          <Id>{subscription.public_id}</Id>
        </Fact>
        <Fact label="Status">
          <StatusBadge status={subscription.status} />
        </Fact>
        <Fact label="Amount">
          <Money amount={subscription.amount} currency={subscription.currency} /> every{" "}
          {subscription.recurring_interval_count === 1
            ? subscription.recurring_interval.toLowerCase()
            : `${subscription.recurring_interval_count} ${subscription.recurring_interval.toLowerCase()}s`}
        </Fact>
        <Fact label="Current period">
          <DateTime at={subscription.current_period_start} /> –{" "}
          <DateTime at={subscription.current_period_end} />
        </Fact>
        <Fact label="Next charge">
          {canceled || subscription.cancel_at_period_end === 1
            ? <span class="muted">none</span>
            : <DateTime at={subscription.next_charge_at} />}
        </Fact>
        {subscription.cancel_at_period_end === 1 && !canceled && (
          <Fact label="Ends">at the end of the current period</Fact>
        )}
        {canceled && (
          <Fact label="Canceled">
            <DateTime at={subscription.canceled_at} /> ({subscription.cancellation_reason})
          </Fact>
        )}
      </Facts>
      {!canceled && props.canCancel && (
        <div class="actions">
          {subscription.status === "ACTIVE" && subscription.cancel_at_period_end === 0 && (
            <ConfirmAction
              action={action}
              csrf={props.csrf}
              label="Cancel at period end"
              confirmLabel="Cancel at period end"
              tone="default"
              fields={{ atPeriodEnd: "true" }}
            >
              The customer keeps what they paid for until{" "}
              <DateTime at={subscription.current_period_end} />; nothing more is charged.
            </ConfirmAction>
          )}
          <ConfirmAction
            action={action}
            csrf={props.csrf}
            label="Cancel now"
            confirmLabel="Cancel the subscription now"
            fields={{ atPeriodEnd: "false" }}
          >
            The subscription ends at once and nothing more is charged. This does not refund the
            current period; refund the payment for that.
          </ConfirmAction>
        </div>
      )}
    </Card>
  );
}

/** Payments: the list with filters, and each payment with its events, refunds and subscription. */
export function createPaymentPages(services: Services): Hono<PanelEnv> {
  const { config } = services;
  const sandbox = services.environment === "sandbox";

  const detailPage = async (
    c: PanelContext,
    paymentId: string,
    values: Form,
    problem: FormProblem | null,
    status = 200,
  ) => {
    const ctx = orgCtx(c);
    const session = c.get("session");
    const subject = subjectOf(session);
    const detail = await paymentDetail(ctx, paymentId);
    const { payment } = detail;
    const names = await offerNamesOf(ctx, [payment]);
    const notice = noticeOf(c, NOTICES);
    const canRefund = can("payments.refund", subject, config.quickstartAccess);
    const developer = can("developers", subject, config.quickstartAccess);
    const metadata = Object.entries(JSON.parse(payment.metadata) as Record<string, string>);
    const base = `/panel/payments/${payment.public_id}`;
    return renderPanel(services, c, {
      title: `Payment ${payment.public_id}`,
      current: "payments",
      status,
      body: (
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
          {notice && <Notice tone="success">{notice}</Notice>}
          <div class="grid grid--sidebar">
            <div class="stack">
              <Card title="Details" id="details">
                <Facts>
                  <Fact label="Offer">
                    <a href={`/panel/offers/${payment.qr_id}`}>
                      {names.get(payment.offer_id) ?? payment.qr_id}
                    </a>
                  </Fact>
                  <Fact label="Quantity">{payment.quantity}</Fact>
                  <Fact label="Amount">
                    <Money amount={payment.amount} currency={payment.currency} />
                  </Fact>
                  <Fact label="Refunded">
                    <Money amount={payment.amount_refunded} currency={payment.currency} />
                  </Fact>
                  <Fact label="Customer">
                    {[payment.customer_name, payment.customer_email].filter(Boolean).join(", ") ||
                      "—"}
                  </Fact>
                  <Fact label="Created">
                    <DateTime at={payment.created_at} />
                  </Fact>
                  <Fact label="Payable until">
                    <DateTime at={payment.expires_at} />
                  </Fact>
                  {payment.failure_code && (
                    <Fact label="Failure">
                      <code>{payment.failure_code}</code>
                    </Fact>
                  )}
                  <Fact label="Payment page">
                    <a
                      href={paymentUrl(config.publicUrl, payment.public_id)}
                      target="_blank"
                      rel="noopener"
                    >
                      {paymentUrl(config.publicUrl, payment.public_id)}
                    </a>
                  </Fact>
                  <Fact label="Success URL">{payment.success_url ?? "—"}</Fact>
                  <Fact label="Cancel URL">{payment.cancel_url ?? "—"}</Fact>
                  <Fact label="Metadata">
                    {metadata.length === 0 ? "—" : (
                      <ul class="plain-list">
                        {metadata.map(([key, value]) => (
                          <li key={key}>
                            <code>{key}</code> = {value}
                          </li>
                        ))}
                      </ul>
                    )}
                  </Fact>
                </Facts>
                {payment.status === "PENDING" && (canRefund || (sandbox && developer)) && (
                  <div class="actions">
                    {canRefund && (
                      <ConfirmAction
                        action={`${base}/cancel`}
                        csrf={session.csrfToken}
                        label="Cancel payment"
                        confirmLabel="Cancel the payment"
                      >
                        The payment link stops working; the customer can no longer pay it.
                      </ConfirmAction>
                    )}
                    {sandbox && developer && (
                      <details class="confirm">
                        <summary class="button button--small button--secondary">
                          Simulate the customer
                        </summary>
                        <form
                          method="post"
                          action={`${base}/complete`}
                          class="confirm__box"
                          data-once
                        >
                          <CsrfField token={session.csrfToken} />
                          <label class="field__label" for="simulate-code">Sandbox test code</label>
                          <select id="simulate-code" name="code">
                            {SANDBOX_TEST_CODES.map((entry) => (
                              <option value={entry.example}>
                                {entry.example} → {entry.result}
                                {entry.failureCode ? ` (${entry.failureCode})` : ""}
                              </option>
                            ))}
                          </select>
                          <button type="submit" class="button button--small button--primary">
                            Enter the code
                          </button>
                        </form>
                      </details>
                    )}
                  </div>
                )}
              </Card>
              <RefundsCard
                detail={detail}
                canRefund={canRefund}
                csrf={session.csrfToken}
                values={values}
                problem={problem}
              />
              <SubscriptionCard
                detail={detail}
                canCancel={can("subscriptions.cancel", subject, config.quickstartAccess)}
                csrf={session.csrfToken}
              />
            </div>
            <Card title="Events" id="events">
              <p class="muted small">
                Newest first: the payment's own, its refunds' and its checkout session's, exactly as
                webhooks deliver them.
              </p>
              <Timeline detail={detail} />
            </Card>
          </div>
        </>
      ),
    });
  };

  return new Hono<PanelEnv>()
    .get("/panel/payments", allow(services, "payments.view"), async (c) => {
      const ctx = orgCtx(c);
      const status = c.req.query("status") || undefined;
      const qrId = c.req.query("qrId") || undefined;
      const query = parseRequest(ListPaymentsQuery, {
        limit: "25",
        ...(status && { status }),
        ...(qrId && { qrId }),
        ...(c.req.query("startingAfter") && { startingAfter: c.req.query("startingAfter") }),
      });
      const page = await listPayments(ctx, query);
      const names = await offerNamesOf(ctx, page.data);
      const next = page.hasMore
        ? `/panel/payments?${new URLSearchParams({
          ...(status && { status }),
          ...(qrId && { qrId }),
          startingAfter: page.data.at(-1)!.public_id,
        })}`
        : null;
      return renderPanel(services, c, {
        title: "Payments",
        current: "payments",
        body: (
          <>
            <PageHeader
              title="Payments"
              description="Newest first. Open one for its events and refunds."
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
              {page.data.length === 0
                ? (
                  <EmptyState title={status || qrId ? "No payments match" : "No payments yet"}>
                    <p>
                      Payments appear here when customers open an offer's link or QR code, or when
                      your server calls <code>POST /payments</code>.
                    </p>
                  </EmptyState>
                )
                : <PaymentsTable payments={page.data} offerNames={names} caption="Payments" />}
              {next && (
                <p class="pager">
                  <a href={next}>Older payments →</a>
                </p>
              )}
            </Card>
          </>
        ),
      });
    })
    .get(
      "/panel/payments/:paymentId",
      allow(services, "payments.view"),
      (c) => detailPage(c, c.req.param("paymentId"), {}, null),
    )
    .post("/panel/payments/:paymentId/refunds", allow(services, "payments.refund"), async (c) => {
      const ctx = orgCtx(c);
      const paymentId = c.req.param("paymentId");
      const form = await readForm(c);
      const result = await attempt(async () => {
        const { payment } = await paymentDetail(ctx, paymentId);
        const amountText = field(form, "amount").trim();
        const reason = field(form, "reason").trim();
        const input = parseRequest(CreateRefundRequest, {
          ...(amountText !== "" && {
            amount: parseAmountField(amountText, payment.currency, "amount"),
          }),
          ...(reason !== "" && { reason }),
        });
        return createRefund(ctx, paymentId, input);
      });
      if (!result.ok) return detailPage(c, paymentId, form, result.problem, result.problem.status);
      return redirectWith(c, `/panel/payments/${paymentId}`, "refunded");
    })
    .post("/panel/payments/:paymentId/cancel", allow(services, "payments.refund"), async (c) => {
      const paymentId = c.req.param("paymentId");
      await cancelPayment(orgCtx(c), paymentId);
      return redirectWith(c, `/panel/payments/${paymentId}`, "canceled");
    })
    .post("/panel/payments/:paymentId/complete", allow(services, "developers"), async (c) => {
      const paymentId = c.req.param("paymentId");
      const form = await readForm(c);
      await completePayment(orgCtx(c), paymentId, field(form, "code"));
      return redirectWith(c, `/panel/payments/${paymentId}`, "completed");
    })
    .post(
      "/panel/subscriptions/:subscriptionId/cancel",
      allow(services, "subscriptions.cancel"),
      async (c) => {
        const form = await readForm(c);
        const atPeriodEnd = field(form, "atPeriodEnd") === "true";
        const subscription = await cancelSubscription(
          orgCtx(c),
          c.req.param("subscriptionId"),
          { atPeriodEnd },
        );
        return redirectWith(
          c,
          `/panel/payments/${subscription.first_payment_public_id}`,
          atPeriodEnd ? "subscription-scheduled" : "subscription-canceled",
        );
      },
    );
}
