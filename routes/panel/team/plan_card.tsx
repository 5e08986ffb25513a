import { Card, TableWrap } from "../../../components/panel/ui.tsx";
import { decide, type QuickstartAccess } from "../../../lib/accounts/access.ts";
import { type Plan, PLANS } from "../../../lib/plans.ts";

/** The organisation's plan and what each plan includes. */
export function PlanCard(props: { plan: Plan; quickstartAccess: QuickstartAccess }) {
  const rows: [string, (plan: Plan) => boolean][] = [
    ["Offers, QR codes and payments in the panel", () => true],
    ["Refunds and subscriptions", () => true],
    ["API access and webhooks", (plan) => plan !== "FREE"],
    ["Developers: API keys, webhooks, checkout", (plan) => plan !== "FREE"],
    [
      "Interactive Quick Start",
      (plan) => decide("quickstart", { role: "OWNER", plan }, props.quickstartAccess).allowed,
    ],
  ];
  return (
    <Card title="Plan" id="plan">
      <p>
        {props.plan === "FREE"
          ? "This organisation is on FREE: the panel without the API."
          : `This organisation is on ${props.plan}.`}{" "}
        Plans are set by whoever runs this Paystead installation, with{" "}
        <code>deno task cli org set-plan --slug … --plan …</code>.
      </p>
      <TableWrap label="What each plan includes">
        <table class="table table--compact plan-table">
          <caption class="visually-hidden">What each plan includes</caption>
          <thead>
            <tr>
              <th scope="col">Included</th>
              {PLANS.map((plan) => (
                <th scope="col" class={plan === props.plan ? "plan-table__current" : ""}>
                  {plan}
                  {plan === props.plan && <span class="visually-hidden">(yours)</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, included]) => (
              <tr>
                <th scope="row">{label}</th>
                {PLANS.map((plan) => (
                  <td class={plan === props.plan ? "plan-table__current" : ""}>
                    {included(plan)
                      ? <span aria-label="yes">✓</span>
                      : <span aria-label="no" class="muted">—</span>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <p class="muted small">
        Developers and the Quick Start are for owners and admins whatever the plan.
      </p>
    </Card>
  );
}
