import {
  Card,
  CsrfField,
  EmptyState,
  Field,
  FormError,
  Id,
  Money,
  Notice,
  PageHeader,
} from "../../../components/panel/ui.tsx";
import { moneyText, rich, useT } from "../../../components/panel/i18n.ts";
import type { Translator } from "../../../lib/i18n/mod.ts";
import type { ExportKind } from "../../../lib/panel/payment_records.ts";
import { PAYMENT_STATUSES, type PaymentStatus } from "../../../lib/payments/status.ts";
import type {
  Reconciliation,
  ReconciliationProblem,
} from "../../../lib/reconciliations/schemas.ts";
import { REFUND_STATUSES, type RefundStatus } from "../../../lib/refunds/status.ts";
import { EXPORT_HREF, RECONCILIATIONS_HREF } from "./href.ts";

function back(tr: Translator) {
  return { href: "/panel/payments", label: tr.t("panel.nav.payments") };
}

/** A problem with one of the export forms. */
export interface ExportProblem {
  kind: ExportKind;
  message: string;
}

function ExportForm(props: {
  kind: ExportKind;
  statuses: readonly string[];
  problem: ExportProblem | null;
}) {
  const { kind } = props;
  const { t } = useT();
  const statusLabel = (status: string) =>
    kind === "payments"
      ? t(`panel.status.${status as PaymentStatus}`)
      : t(`panel.refunds.status.${status as RefundStatus}`);
  return (
    <form method="get" action={`${EXPORT_HREF}/${kind}`} class="form" id={`export-${kind}`}>
      <FormError message={props.problem?.kind === kind ? props.problem.message : null} />
      <Field name={`${kind}-from`} label={t("panel.export.from")}>
        {(attrs) => <input type="date" {...attrs} name="from" />}
      </Field>
      <Field name={`${kind}-to`} label={t("panel.export.to")}>
        {(attrs) => <input type="date" {...attrs} name="to" />}
      </Field>
      <Field name={`${kind}-status`} label={t("panel.export.status")}>
        {(attrs) => (
          <select {...attrs} name="status">
            <option value="">{t("panel.export.any")}</option>
            {props.statuses.map((status) => (
              <option key={status} value={status}>{statusLabel(status)}</option>
            ))}
          </select>
        )}
      </Field>
      <Field name={`${kind}-format`} label={t("panel.export.format")}>
        {(attrs) => (
          <select {...attrs} name="format">
            <option value="xlsx">{t("panel.export.xlsx")}</option>
            <option value="csv">{t("panel.export.csv")}</option>
          </select>
        )}
      </Field>
      <button type="submit" class="button button--primary">
        {t(kind === "payments" ? "panel.export.downloadPayments" : "panel.export.downloadRefunds")}
      </button>
    </form>
  );
}

/** Payments -> Export: payments and refunds of a period, for the accountant. */
export function ExportPage(props: { problem: ExportProblem | null }) {
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader
        title={t("panel.export.title")}
        back={back(tr)}
        description={t("panel.export.description")}
      />
      <div class="grid grid--2">
        <Card title={t("panel.export.payments")}>
          <ExportForm kind="payments" statuses={PAYMENT_STATUSES} problem={props.problem} />
        </Card>
        <Card title={t("panel.export.refunds")}>
          <ExportForm kind="refunds" statuses={REFUND_STATUSES} problem={props.problem} />
        </Card>
      </div>
    </>
  );
}

function Totals(props: { totals: Reconciliation["fees"] }) {
  const { t } = useT();
  if (props.totals.length === 0) return <span class="muted">{t("panel.none")}</span>;
  return (
    <>
      {props.totals.map((total, index) => (
        <>
          {index > 0 && ", "}
          <Money amount={total.amount} currency={total.currency} />
        </>
      ))}
    </>
  );
}

/**
 * What a problem found, in the page's language: said again from its fields, with the stored
 * (English) message telling which case of an amount mismatch it is and whose statement it was
 * (`source`, when the message does not name it). A message no case knows is shown as it is.
 */
function problemText(tr: Translator, problem: ReconciliationProblem, source: string): string {
  const money = (amount: number | null) =>
    amount === null ? tr.t("panel.none") : moneyText(tr, amount, problem.currency);
  const payment = problem.paymentId ?? "";
  const provider = /^(.+?) (?:took|refunded|shows) /.exec(problem.message)?.[1] ?? source;
  switch (problem.kind) {
    case "unknown_order":
      return problem.orderId === null
        ? tr.t("panel.reconciliation.noOrderId", { provider })
        : tr.t("panel.reconciliation.unknownOrder", { orderId: problem.orderId });
    case "not_in_statement":
      return tr.t("panel.reconciliation.notInStatement", {
        payment,
        amount: money(problem.expectedAmount),
      });
    case "amount_mismatch": {
      const amount = money(problem.amount);
      if (problem.message.endsWith("; Paystead has no succeeded refund of that amount for it.")) {
        return tr.t("panel.reconciliation.refundUnmatched", { provider, amount, payment });
      }
      const held = / which Paystead holds as (\w+)( and already matched)?\.$/.exec(problem.message);
      if (held) {
        return tr.t(
          held[2] ? "panel.reconciliation.heldAsMatched" : "panel.reconciliation.heldAs",
          { provider, amount, payment, status: held[1] },
        );
      }
      if (problem.message.includes(", which was for ")) {
        return tr.t("panel.reconciliation.wasFor", {
          provider,
          amount,
          payment,
          expected: money(problem.expectedAmount),
        });
      }
      return problem.message;
    }
    default:
      return problem.message;
  }
}

function Problems(props: { reconciliation: Reconciliation; source: string }) {
  const tr = useT();
  const { problems, problemCounts, problemsTruncated } = props.reconciliation;
  const count = Object.values(problemCounts).reduce((sum, n) => sum + n, 0);
  if (count === 0) {
    return <span class="badge badge--success">{tr.t("panel.reconciliation.allMatched")}</span>;
  }
  return (
    <details>
      <summary>
        <span class="badge badge--warning">
          {tr.t("panel.reconciliation.problemCount", { count })}
        </span>
      </summary>
      {problemsTruncated && (
        <p class="muted">
          {tr.t("panel.reconciliation.problemsCut", {
            shown: problems.length,
            count,
            counts: (Object.entries(problemCounts) as [ReconciliationProblem["kind"], number][])
              .filter(([, n]) => n > 0)
              .map(([kind, n]) =>
                tr.t("panel.reconciliation.kindCount", {
                  kind: tr.t(`panel.reconciliation.kind.${kind}`),
                  count: n,
                })
              )
              .join(", "),
          })}
        </p>
      )}
      <ul class="plan">
        {problems.map((problem) => {
          const nodes = {
            kind: <strong>{tr.t(`panel.reconciliation.kind.${problem.kind}`)}</strong>,
          };
          const text = problemText(tr, problem, props.source);
          return (
            <li data-kind={problem.kind}>
              {problem.line === null
                ? rich(tr, "panel.reconciliation.noLine", nodes, { text })
                : rich(tr, "panel.reconciliation.atLine", nodes, { text, line: problem.line })}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** Payments -> Reconciliation: upload the provider's statement, and what each one showed. */
export function ReconciliationsPage(props: {
  reconciliations: Reconciliation[];
  csrf: string;
  problem: string | null;
  notice: string | null;
  /** Whose statements are reconciled here: the provider's name. */
  source: string;
}) {
  const tr = useT();
  const { t } = tr;
  const provider = props.source;
  return (
    <>
      <PageHeader
        title={t("panel.reconciliation.heading", { provider })}
        back={back(tr)}
        description={t("panel.reconciliation.description", { provider })}
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      <Card title={t("panel.reconciliation.upload")}>
        <form
          method="post"
          action={RECONCILIATIONS_HREF}
          enctype="multipart/form-data"
          class="form"
        >
          <CsrfField token={props.csrf} />
          <FormError message={props.problem} />
          <Field
            name="statement"
            label={t("panel.reconciliation.statement", { provider })}
            hint={t("panel.reconciliation.statementHint", { provider })}
          >
            {(attrs) => <input type="file" accept=".csv,text/csv" required {...attrs} />}
          </Field>
          <button type="submit" class="button button--primary">
            {t("panel.reconciliation.submit")}
          </button>
        </form>
      </Card>
      <Card title={t("panel.reconciliation.done")}>
        {props.reconciliations.length === 0
          ? <EmptyState title={t("panel.reconciliation.none")} />
          : (
            <table class="table" id="reconciliations">
              <thead>
                <tr>
                  <th>{t("panel.reconciliation.period")}</th>
                  <th>{t("panel.reconciliation.operations")}</th>
                  <th>{t("panel.reconciliation.matched")}</th>
                  <th>{t("panel.reconciliation.fees")}</th>
                  <th>{t("panel.reconciliation.payouts")}</th>
                  <th>{t("panel.reconciliation.problems")}</th>
                </tr>
              </thead>
              <tbody>
                {props.reconciliations.map((reconciliation) => (
                  <tr id={reconciliation.reconciliationId}>
                    <td>
                      {reconciliation.from} – {reconciliation.to}
                      <br />
                      <Id>{reconciliation.reconciliationId}</Id>
                    </td>
                    <td>{reconciliation.operations}</td>
                    <td>{reconciliation.matched}</td>
                    <td>
                      <Totals totals={reconciliation.fees} />
                    </td>
                    <td>
                      <Totals totals={reconciliation.payouts} />
                    </td>
                    <td>
                      <Problems reconciliation={reconciliation} source={provider} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
      </Card>
    </>
  );
}
