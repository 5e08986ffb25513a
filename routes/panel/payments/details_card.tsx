import { useT } from "../../../components/panel/i18n.ts";
import {
  Card,
  ConfirmAction,
  CsrfField,
  DateTime,
  Fact,
  Facts,
  Money,
} from "../../../components/panel/ui.tsx";
import type { MessageKey } from "../../../lib/i18n/mod.ts";
import type { PaymentView } from "../../../lib/panel/payments.ts";
import { SANDBOX_TEST_CODES } from "../../../lib/providers/sandbox.ts";

/** What each sandbox test code does to a payment, in the page's language. */
const SIMULATED_RESULTS: Record<(typeof SANDBOX_TEST_CODES)[number]["result"], MessageKey> = {
  SUCCEEDED: "panel.emails.simulate.SUCCEEDED",
  FAILED: "panel.emails.simulate.FAILED",
  "PROCESSING, then FAILED": "panel.emails.simulate.PROCESSING_FAILED",
};

/** Plays the customer of a sandbox payment with one of the test codes. */
function SimulateCustomer(props: { action: string; csrf: string }) {
  const { t } = useT();
  return (
    <details class="confirm">
      <summary class="button button--small button--secondary">
        {t("panel.payments.simulate")}
      </summary>
      <form method="post" action={props.action} class="confirm__box" data-once>
        <CsrfField token={props.csrf} />
        <label class="field__label" for="simulate-code">{t("panel.payments.testCode")}</label>
        <select id="simulate-code" name="code">
          {SANDBOX_TEST_CODES.map((entry) => (
            <option value={entry.example}>
              {entry.example} → {t(SIMULATED_RESULTS[entry.result])}
              {entry.failureCode ? ` (${entry.failureCode})` : ""}
            </option>
          ))}
        </select>
        <button type="submit" class="button button--small button--primary">
          {t("panel.payments.enterCode")}
        </button>
      </form>
    </details>
  );
}

/** What a payment is, and while it is pending, canceling it or playing its customer. */
export function PaymentDetailsCard(props: {
  view: PaymentView;
  csrf: string;
  canCancel: boolean;
  canSimulate: boolean;
}) {
  const { payment } = props.view.detail;
  const { metadata, paymentPageUrl } = props.view;
  const base = `/panel/payments/${payment.public_id}`;
  const { t } = useT();
  return (
    <Card title={t("panel.payments.details")} id="details">
      <Facts>
        <Fact label={t("panel.payments.fact.offer")}>
          <a href={`/panel/offers/${payment.qr_id}`}>{props.view.offerName}</a>
        </Fact>
        <Fact label={t("panel.payments.fact.quantity")}>{payment.quantity}</Fact>
        <Fact label={t("panel.payments.fact.amount")}>
          <Money amount={payment.amount} currency={payment.currency} />
        </Fact>
        <Fact label={t("panel.payments.fact.refunded")}>
          <Money amount={payment.amount_refunded} currency={payment.currency} />
        </Fact>
        <Fact label={t("panel.payments.fact.customer")}>
          {[payment.customer_name, payment.customer_email].filter(Boolean).join(", ") || "—"}
        </Fact>
        <Fact label={t("panel.payments.fact.created")}>
          <DateTime at={payment.created_at} />
        </Fact>
        <Fact label={t("panel.payments.fact.payableUntil")}>
          <DateTime at={payment.expires_at} />
        </Fact>
        {payment.failure_code && (
          <Fact label={t("panel.payments.fact.failure")}>
            <code>{payment.failure_code}</code>
          </Fact>
        )}
        <Fact label={t("panel.payments.fact.page")}>
          <a href={paymentPageUrl} target="_blank" rel="noopener">{paymentPageUrl}</a>
        </Fact>
        <Fact label={t("panel.payments.fact.successUrl")}>{payment.success_url ?? "—"}</Fact>
        <Fact label={t("panel.payments.fact.cancelUrl")}>{payment.cancel_url ?? "—"}</Fact>
        <Fact label={t("panel.payments.fact.metadata")}>
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
      {payment.status === "PENDING" && (props.canCancel || props.canSimulate) && (
        <div class="actions">
          {props.canCancel && (
            <ConfirmAction
              action={`${base}/cancel`}
              csrf={props.csrf}
              label={t("panel.payments.cancel")}
              confirmLabel={t("panel.payments.cancelConfirm")}
            >
              {t("panel.payments.cancelText")}
            </ConfirmAction>
          )}
          {props.canSimulate && <SimulateCustomer action={`${base}/complete`} csrf={props.csrf} />}
        </div>
      )}
    </Card>
  );
}
