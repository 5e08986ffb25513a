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
import type { ExportKind } from "../../../lib/panel/payment_records.ts";
import { PAYMENT_STATUSES } from "../../../lib/payments/status.ts";
import type { Reconciliation } from "../../../lib/reconciliations/schemas.ts";
import { REFUND_STATUSES } from "../../../lib/refunds/status.ts";
import { EXPORT_HREF, RECONCILIATIONS_HREF } from "./href.ts";

const BACK = { href: "/panel/payments", label: "Payments" };

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
  return (
    <form method="get" action={`${EXPORT_HREF}/${kind}`} class="form" id={`export-${kind}`}>
      <FormError message={props.problem?.kind === kind ? props.problem.message : null} />
      <Field name={`${kind}-from`} label="From (first day)">
        {(attrs) => <input type="date" {...attrs} name="from" />}
      </Field>
      <Field name={`${kind}-to`} label="To (last day)">
        {(attrs) => <input type="date" {...attrs} name="to" />}
      </Field>
      <Field name={`${kind}-status`} label="Status">
        {(attrs) => (
          <select {...attrs} name="status">
            <option value="">Any</option>
            {props.statuses.map((status) => (
              <option value={status}>{status.charAt(0) + status.slice(1).toLowerCase()}</option>
            ))}
          </select>
        )}
      </Field>
      <Field name={`${kind}-format`} label="Format">
        {(attrs) => (
          <select {...attrs} name="format">
            <option value="xlsx">Excel workbook (.xlsx)</option>
            <option value="csv">CSV (.csv)</option>
          </select>
        )}
      </Field>
      <button type="submit" class="button button--primary">Download {kind}</button>
    </form>
  );
}

/** Payments -> Export: payments and refunds of a period, for the accountant. */
export function ExportPage(props: { problem: ExportProblem | null }) {
  return (
    <>
      <PageHeader
        title="Export"
        back={BACK}
        description="Days are in Polish time (Europe/Warsaw). Leave them empty for everything."
      />
      <div class="grid grid--2">
        <Card title="Payments">
          <ExportForm kind="payments" statuses={PAYMENT_STATUSES} problem={props.problem} />
        </Card>
        <Card title="Refunds">
          <ExportForm kind="refunds" statuses={REFUND_STATUSES} problem={props.problem} />
        </Card>
      </div>
    </>
  );
}

function Totals(props: { totals: Reconciliation["fees"] }) {
  if (props.totals.length === 0) return <span class="muted">—</span>;
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

function Problems(props: { reconciliation: Reconciliation }) {
  const { problems } = props.reconciliation;
  if (problems.length === 0) return <span class="badge badge--success">All matched</span>;
  return (
    <details>
      <summary>
        <span class="badge badge--warning">
          {problems.length} problem{problems.length === 1 ? "" : "s"}
        </span>
      </summary>
      <ul class="plan">
        {problems.map((problem) => (
          <li>
            {problem.line === null ? "" : `Line ${problem.line}: `}
            <code>{problem.kind}</code> {problem.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Payments -> Reconciliation: upload PayU's statement, and what each one showed. */
export function ReconciliationsPage(props: {
  reconciliations: Reconciliation[];
  csrf: string;
  problem: string | null;
  notice: string | null;
}) {
  return (
    <>
      <PageHeader
        title="Reconciliation with PayU"
        back={BACK}
        description="Match PayU's operation statement with the payments and refunds here."
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      <Card title="Upload a statement">
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
            label="PayU statement (.csv)"
            hint="From PayU's panel: the operation statement of a period, as CSV (at most 10 MiB)."
          >
            {(attrs) => <input type="file" accept=".csv,text/csv" required {...attrs} />}
          </Field>
          <button type="submit" class="button button--primary">Reconcile</button>
        </form>
      </Card>
      <Card title="Statements reconciled">
        {props.reconciliations.length === 0
          ? <EmptyState title="No statement reconciled yet" />
          : (
            <table class="table" id="reconciliations">
              <thead>
                <tr>
                  <th>Period</th>
                  <th>Operations</th>
                  <th>Matched</th>
                  <th>Fees</th>
                  <th>Payouts</th>
                  <th>Problems</th>
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
                      <Problems reconciliation={reconciliation} />
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
