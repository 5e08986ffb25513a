import {
  Card,
  ConfirmAction,
  CsrfField,
  DateTime,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import { useT } from "../../../components/panel/i18n.ts";
import { canManageMember } from "../../../lib/accounts/access.ts";
import type { PanelSession } from "../../../lib/accounts/sessions.ts";
import type { Member } from "../../../lib/accounts/team.ts";
import { type Role, ROLES } from "../../../lib/plans.ts";
import { roleHint, roleLabel } from "./roles.ts";

function RoleSelect(props: { actor: Role; current: Role | null; name?: string; id?: string }) {
  const tr = useT();
  return (
    <select name={props.name ?? "role"} id={props.id} aria-label={tr.t("panel.team.role")}>
      {ROLES.map((role) => (
        <option
          value={role}
          selected={role === (props.current ?? "MEMBER")}
          disabled={!canManageMember(props.actor, props.current, role)}
        >
          {roleLabel(tr, role)}
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
  const tr = useT();
  const { t } = tr;
  return (
    <Card title={t("panel.team.members")} id="members">
      <TableWrap label={t("panel.team.members")}>
        <table class="table">
          <caption class="visually-hidden">{t("panel.team.members")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("panel.team.member")}</th>
              <th scope="col">{t("panel.team.role")}</th>
              <th scope="col">{t("panel.team.joined")}</th>
              <th scope="col">
                <span class="visually-hidden">{t("panel.team.actions")}</span>
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
                    {member.isYou && <span class="tag">{t("panel.team.you")}</span>}
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
                            {t("panel.team.save")}
                          </button>
                        </form>
                      )
                      : (
                        <>
                          {roleLabel(tr, member.role)}
                          {lastOwner && (
                            <span class="muted small block">{t("panel.team.onlyOwner")}</span>
                          )}
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
                          label={t(member.isYou ? "panel.team.leave" : "panel.team.remove")}
                          confirmLabel={member.isYou
                            ? t("panel.team.leaveConfirm")
                            : t("panel.team.removeConfirm", { email: member.email })}
                        >
                          {member.isYou
                            ? t("panel.team.leaveText", { org: session.org.name })
                            : t("panel.team.removeText", { email: member.email })}{" "}
                          {t("panel.team.staysText")}
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
        {t("panel.team.oneOwner")} {ROLES
          .map((role) =>
            t("panel.team.roleHint", { role: roleLabel(tr, role), hint: roleHint(tr, role) })
          )
          .join(" ")}
      </p>
    </Card>
  );
}
