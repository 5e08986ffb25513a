import {
  Card,
  CsrfField,
  DateTime,
  Field,
  FormError,
  StatusBadge,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import { useT } from "../../../components/panel/i18n.ts";
import { canManageMember } from "../../../lib/accounts/access.ts";
import type { PanelSession } from "../../../lib/accounts/sessions.ts";
import type { PendingInvitation } from "../../../lib/accounts/team.ts";
import { ROLES } from "../../../lib/plans.ts";
import { type Form, type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";
import { roleHint, roleLabel } from "./roles.ts";

/**
 * The open invitations and, for those who manage the team, the form to invite someone with
 * the `values` and `formProblem` of a refused try.
 */
export function InvitationsCard(props: {
  session: PanelSession;
  invitations: PendingInvitation[];
  manage: boolean;
  values: Form;
  formProblem: FormProblem | null;
}) {
  const { session, invitations, manage, values, formProblem } = props;
  const tr = useT();
  const { t } = tr;
  return (
    <Card title={t("panel.team.invitations")} id="invitations">
      {invitations.length > 0 && (
        <TableWrap label={t("panel.team.openInvitations")}>
          <table class="table table--compact">
            <caption class="visually-hidden">{t("panel.team.openInvitations")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("panel.team.email")}</th>
                <th scope="col">{t("panel.team.role")}</th>
                <th scope="col">{t("panel.team.invitedBy")}</th>
                <th scope="col">{t("panel.team.worksUntil")}</th>
                <th scope="col">
                  <span class="visually-hidden">{t("panel.team.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => (
                <tr>
                  <td>{invitation.email}</td>
                  <td>{invitation.role}</td>
                  <td>{invitation.invitedBy ?? "—"}</td>
                  <td>
                    {invitation.expired
                      ? <StatusBadge status="EXPIRED" label={t("panel.team.expired")} />
                      : <DateTime at={invitation.expiresAt} />}
                  </td>
                  <td class="actions-cell">
                    {manage && canManageMember(session.role, null, invitation.role) && (
                      <form
                        method="post"
                        action={`/panel/team/invitations/${invitation.id}/revoke`}
                        class="inline-form"
                      >
                        <CsrfField token={session.csrfToken} />
                        <button
                          type="submit"
                          class="button button--small button--danger-ghost"
                        >
                          {t("panel.team.withdraw")}
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {manage && (
        <form method="post" action="/panel/team/invitations" class="form" data-once>
          <CsrfField token={session.csrfToken} />
          <h3 class="form__title">{t("panel.team.invite")}</h3>
          <FormError
            message={problemOfForm(formProblem, ["email", "role"])}
          />
          <div class="form__row">
            <Field
              name="email"
              label={t("panel.team.email")}
              error={problemFor(formProblem, "email")}
            >
              {(attrs) => (
                <input
                  {...attrs}
                  type="email"
                  required
                  autocomplete="off"
                  value={typeof values.email === "string" ? values.email : ""}
                />
              )}
            </Field>
            <Field
              name="role"
              label={t("panel.team.role")}
              error={problemFor(formProblem, "role")}
            >
              {(attrs) => (
                <select {...attrs}>
                  {ROLES.map((role) => (
                    <option
                      value={role}
                      selected={role ===
                        (typeof values.role === "string" ? values.role : "MEMBER")}
                      disabled={!canManageMember(session.role, null, role)}
                    >
                      {roleLabel(tr, role)}: {roleHint(tr, role)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <button type="submit" class="button button--primary">
            {t("panel.team.createLink")}
          </button>
        </form>
      )}
    </Card>
  );
}
