import { moneyText, useT } from "../../../components/panel/i18n.ts";
import {
  Card,
  CsrfField,
  DateTime,
  Field,
  FormError,
  Money,
  StatusBadge,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import { formatMajorAmount } from "../../../lib/money.ts";
import type { RefundReview } from "../../../lib/panel/payments.ts";
import type { PaymentDetail } from "../../../lib/panel/insights.ts";
import type { PaymentRecord } from "../../../lib/payments/mod.ts";
import type { RefundRecord } from "../../../lib/refunds/mod.ts";
import { type Form, type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";

/** The refund form being filled in (with what was typed and what went wrong), or confirmed. */
export type RefundStep =
  | { kind: "form"; values: Form; problem: FormProblem | null }
  | { kind: "confirm"; review: RefundReview };

function RefundsTable(props: { refunds: RefundRecord[] }) {
  const { t } = useT();
  return (
    <TableWrap label={t("panel.refunds.caption")}>
      <table class="table table--compact">
        <caption class="visually-hidden">{t("panel.refunds.caption")}</caption>
        <thead>
          <tr>
            <th scope="col" class="num">{t("panel.refunds.amount")}</th>
            <th scope="col">{t("panel.refunds.status")}</th>
            <th scope="col">{t("panel.refunds.reason")}</th>
            <th scope="col">{t("panel.refunds.created")}</th>
          </tr>
        </thead>
        <tbody>
          {props.refunds.map((refund) => (
            <tr>
              <td class="num">
                <Money amount={refund.amount} currency={refund.currency} />
              </td>
              <td>
                <StatusBadge
                  status={refund.status}
                  label={t(
                    `panel.refunds.status.${refund.status as "PENDING" | "SUCCEEDED" | "FAILED"}`,
                  )}
                />
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
    </TableWrap>
  );
}

function text(values: Form, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/** The refund form; it leads to the confirmation, which states the amount, and refunds nothing. */
function RefundForm(props: {
  payment: PaymentRecord;
  left: number;
  csrf: string;
  values: Form;
  problem: FormProblem | null;
}) {
  const { payment, problem } = props;
  const tr = useT();
  const { t } = tr;
  return (
    <form
      method="post"
      action={`/panel/payments/${payment.public_id}/refunds/confirm#refunds`}
      class="form form--inline-card"
      data-once
    >
      <CsrfField token={props.csrf} />
      <h3 class="form__title">{t("panel.refunds.formTitle")}</h3>
      <FormError message={problemOfForm(problem, ["amount", "reason"])} />
      <div class="form__row">
        <Field
          name="amount"
          label={t("panel.refunds.amountLabel", { currency: payment.currency })}
          hint={t("panel.refunds.upTo", {
            amount: moneyText(tr, props.left, payment.currency),
          })}
          error={problemFor(problem, "amount")}
        >
          {(attrs) => (
            <input
              {...attrs}
              type="text"
              inputMode="decimal"
              class="input--short"
              value={text(props.values, "amount") ??
                formatMajorAmount(props.left, payment.currency)}
            />
          )}
        </Field>
        <Field
          name="reason"
          label={t("panel.refunds.reasonLabel")}
          error={problemFor(problem, "reason")}
        >
          {(attrs) => (
            <input
              {...attrs}
              type="text"
              maxLength={500}
              placeholder={t("panel.refunds.reasonPlaceholder")}
              value={text(props.values, "reason") ?? ""}
            />
          )}
        </Field>
      </div>
      <button type="submit" class="button button--danger">{t("panel.refunds.submit")}</button>
    </form>
  );
}

/**
 * The second step, as a revoke has one: it says exactly what goes back, and only its button
 * posts the refund, with the amount it states.
 */
function RefundConfirmation(props: { paymentId: string; csrf: string; review: RefundReview }) {
  const { review } = props;
  const amount = `${review.amountText} ${review.currency}`;
  const { t } = useT();
  return (
    <form
      method="post"
      action={`/panel/payments/${props.paymentId}/refunds`}
      class="form form--inline-card"
      data-once
    >
      <CsrfField token={props.csrf} />
      <input type="hidden" name="amount" value={review.amountText} />
      <input type="hidden" name="reason" value={review.reason} />
      <h3 class="form__title">{t("panel.refunds.confirmTitle")}</h3>
      <p class="confirm__text">{t("panel.refunds.confirmText", { amount })}</p>
      {review.reason !== "" && (
        <p class="muted">{t("panel.refunds.reasonIs", { reason: review.reason })}</p>
      )}
      <div class="form__actions">
        <button type="submit" class="button button--danger">
          {t("panel.refunds.confirm", { amount })}
        </button>
        <a class="button button--secondary" href={`/panel/payments/${props.paymentId}#refunds`}>
          {t("panel.refunds.cancel")}
        </a>
      </div>
    </form>
  );
}

/** A payment's refunds and, for those who may, the way to refund what is left. */
export function RefundsCard(props: {
  detail: PaymentDetail;
  canRefund: boolean;
  csrf: string;
  step: RefundStep;
}) {
  const { payment, refunds } = props.detail;
  const { step } = props;
  const left = payment.amount - payment.amount_refunded;
  const refundable = payment.status === "SUCCEEDED" && left > 0 && props.canRefund;
  const { t } = useT();
  return (
    <Card title={t("panel.refunds.title")} id="refunds">
      {refunds.length === 0
        ? <p class="muted">{t("panel.refunds.none")}</p>
        : <RefundsTable refunds={refunds} />}
      {refundable && step.kind === "form" && (
        <RefundForm
          payment={payment}
          left={left}
          csrf={props.csrf}
          values={step.values}
          problem={step.problem}
        />
      )}
      {refundable && step.kind === "confirm" && (
        <RefundConfirmation paymentId={payment.public_id} csrf={props.csrf} review={step.review} />
      )}
      {payment.status === "SUCCEEDED" && left === 0 && (
        <p class="muted">{t("panel.refunds.full")}</p>
      )}
      {payment.status !== "SUCCEEDED" && <p class="muted">{t("panel.refunds.onlySucceeded")}</p>}
    </Card>
  );
}
