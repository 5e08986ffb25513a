import {
  Card,
  CsrfField,
  DateTime,
  Field,
  FormError,
  StatusBadge,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import { canManageMember } from "../../../lib/accounts/access.ts";
import type { PanelSession } from "../../../lib/accounts/sessions.ts";
import type { PendingInvitation } from "../../../lib/accounts/team.ts";
import { ROLES } from "../../../lib/plans.ts";
import { type Form, type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";
import { ROLE_HINT, roleLabel } from "./roles.ts";

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
  return (
    <Card title="Invitations" id="invitations">
      {invitations.length > 0 && (
        <TableWrap label="Open invitations">
          <table class="table table--compact">
            <caption class="visually-hidden">Open invitations</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Invited by</th>
                <th scope="col">Link works until</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
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
                      ? <StatusBadge status="EXPIRED" />
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
                          Withdraw
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
          <h3 class="form__title">Invite someone</h3>
          <FormError
            message={problemOfForm(formProblem, ["email", "role"])}
          />
          <div class="form__row">
            <Field
              name="email"
              label="E-mail"
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
              label="Role"
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
                      {roleLabel(role)}: {ROLE_HINT[role]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <button type="submit" class="button button--primary">
            Create invitation link
          </button>
        </form>
      )}
    </Card>
  );
}
