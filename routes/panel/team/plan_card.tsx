import { rich, useT } from "../../../components/panel/i18n.ts";
import { Card, TableWrap } from "../../../components/panel/ui.tsx";
import { decide, type QuickstartAccess } from "../../../lib/accounts/access.ts";
import { type Plan, PLANS } from "../../../lib/plans.ts";

/** The plan above `plan`, or `plan` itself at the top: what an owner would ask for next. */
function nextPlan(plan: Plan): Plan {
  return PLANS[Math.min(PLANS.indexOf(plan) + 1, PLANS.length - 1)];
}

/** The organisation's plan and what each plan includes. */
export function PlanCard(props: { plan: Plan; slug: string; quickstartAccess: QuickstartAccess }) {
  const tr = useT();
  const { t } = tr;
  const rows: [string, (plan: Plan) => boolean][] = [
    [t("panel.team.plan.row.panel"), () => true],
    [t("panel.team.plan.row.refunds"), () => true],
    [t("panel.team.plan.row.api"), (plan) => plan !== "FREE"],
    [t("panel.team.plan.row.developers"), (plan) => plan !== "FREE"],
    [
      t("panel.team.plan.row.quickstart"),
      (plan) => decide("quickstart", { role: "OWNER", plan }, props.quickstartAccess).allowed,
    ],
  ];
  return (
    <Card title={t("panel.team.plan")} id="plan">
      <p>
        {props.plan === "FREE"
          ? t("panel.team.plan.free")
          : t("panel.team.plan.on", { plan: props.plan })} {rich(tr, "panel.team.plan.setBy", {
            // The command as its installation's operator would run it: this organisation's slug.
            command: (
              <code>
                deno task cli org set-plan --slug {props.slug} --plan {nextPlan(props.plan)}
              </code>
            ),
          })}
      </p>
      <TableWrap label={t("panel.team.plan.table")}>
        <table class="table table--compact plan-table">
          <caption class="visually-hidden">{t("panel.team.plan.table")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("panel.team.plan.included")}</th>
              {PLANS.map((plan) => (
                <th scope="col" class={plan === props.plan ? "plan-table__current" : ""}>
                  {plan}
                  {plan === props.plan && (
                    <span class="visually-hidden">{t("panel.team.plan.yours")}</span>
                  )}
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
                      ? <span aria-label={t("panel.team.plan.yes")}>✓</span>
                      : <span aria-label={t("panel.team.plan.no")} class="muted">—</span>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <p class="muted small">
        {t("panel.team.plan.note")}
      </p>
    </Card>
  );
}
