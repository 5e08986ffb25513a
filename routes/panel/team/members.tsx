import {
  Card,
  ConfirmAction,
  CsrfField,
  DateTime,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import { canManageMember } from "../../../lib/accounts/access.ts";
import type { PanelSession } from "../../../lib/accounts/sessions.ts";
import type { Member } from "../../../lib/accounts/team.ts";
import { type Role, ROLES } from "../../../lib/plans.ts";
import { ROLE_HINT, roleLabel } from "./roles.ts";

function RoleSelect(props: { actor: Role; current: Role | null; name?: string; id?: string }) {
  return (
    <select name={props.name ?? "role"} id={props.id} aria-label="Role">
      {ROLES.map((role) => (
        <option
          value={role}
          selected={role === (props.current ?? "MEMBER")}
          disabled={!canManageMember(props.actor, props.current, role)}
        >
          {roleLabel(role)}
        </option>
      ))}
    </select>
  );
}

/** The members and their roles, with the changes the viewer may make. */
export function MembersCard(props: {
  session: PanelSession;
  members: Member[];
  manage: boolean;
}) {
  const { session, members, manage } = props;
  const owners = members.filter((member) => member.role === "OWNER").length;
  return (
    <Card title="Members" id="members">
      <TableWrap label="Members">
        <table class="table">
          <caption class="visually-hidden">Members</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              // The last owner can neither change role nor leave; say so instead of failing.
              const lastOwner = member.role === "OWNER" && owners === 1;
              const editable = manage && !lastOwner &&
                canManageMember(session.role, member.role, member.role);
              return (
                <tr>
                  <td>
                    <span class="member__name">{member.name ?? member.email}</span>
                    {member.isYou && <span class="tag">you</span>}
                    {member.name && <span class="member__email">{member.email}</span>}
                  </td>
                  <td>
                    {editable
                      ? (
                        <form
                          method="post"
                          action={`/panel/team/members/${member.userId}/role`}
                          class="inline-form"
                        >
                          <CsrfField token={session.csrfToken} />
                          <RoleSelect actor={session.role} current={member.role} />
                          <button
                            type="submit"
                            class="button button--small button--secondary"
                          >
                            Save
                          </button>
                        </form>
                      )
                      : (
                        <>
                          {roleLabel(member.role)}
                          {lastOwner && <span class="muted small block">the only owner</span>}
                        </>
                      )}
                  </td>
                  <td>
                    <DateTime at={member.joinedAt} />
                  </td>
                  <td class="actions-cell">
                    {!lastOwner && (member.isYou ||
                      (manage && canManageMember(session.role, member.role, null))) &&
                      (
                        <ConfirmAction
                          action={`/panel/team/members/${member.userId}/remove`}
                          csrf={session.csrfToken}
                          label={member.isYou ? "Leave" : "Remove"}
                          confirmLabel={member.isYou
                            ? "Leave the organisation"
                            : `Remove ${member.email}`}
                        >
                          {member.isYou
                            ? `You lose access to ${session.org.name} at once.`
                            : `${member.email} loses access at once; their sessions end.`}{" "}
                          API keys and webhooks stay.
                        </ConfirmAction>
                      )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
      <p class="muted small">
        An organisation always keeps at least one owner. {Object.entries(ROLE_HINT)
          .map(([role, hint]) => `${roleLabel(role)}: ${hint}.`)
          .join(" ")}
      </p>
    </Card>
  );
}
