import {
  Card,
  ConfirmAction,
  CsrfField,
  DateTime,
  Fact,
  Facts,
  Money,
} from "../../../components/panel/ui.tsx";
import type { PaymentView } from "../../../lib/panel/payments.ts";
import { SANDBOX_TEST_CODES } from "../../../lib/providers/sandbox.ts";

/** Plays the customer of a sandbox payment with one of the test codes. */
function SimulateCustomer(props: { action: string; csrf: string }) {
  return (
    <details class="confirm">
      <summary class="button button--small button--secondary">
        Simulate the customer
      </summary>
      <form method="post" action={props.action} class="confirm__box" data-once>
        <CsrfField token={props.csrf} />
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
  return (
    <Card title="Details" id="details">
      <Facts>
        <Fact label="Offer">
          <a href={`/panel/offers/${payment.qr_id}`}>{props.view.offerName}</a>
        </Fact>
        <Fact label="Quantity">{payment.quantity}</Fact>
        <Fact label="Amount">
          <Money amount={payment.amount} currency={payment.currency} />
        </Fact>
        <Fact label="Refunded">
          <Money amount={payment.amount_refunded} currency={payment.currency} />
        </Fact>
        <Fact label="Customer">
          {[payment.customer_name, payment.customer_email].filter(Boolean).join(", ") || "—"}
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
          <a href={paymentPageUrl} target="_blank" rel="noopener">{paymentPageUrl}</a>
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
      {payment.status === "PENDING" && (props.canCancel || props.canSimulate) && (
        <div class="actions">
          {props.canCancel && (
            <ConfirmAction
              action={`${base}/cancel`}
              csrf={props.csrf}
              label="Cancel payment"
              confirmLabel="Cancel the payment"
            >
              The payment link stops working; the customer can no longer pay it.
            </ConfirmAction>
          )}
          {props.canSimulate && <SimulateCustomer action={`${base}/complete`} csrf={props.csrf} />}
        </div>
      )}
    </Card>
  );
}
