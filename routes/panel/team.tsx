import { Hono } from "hono";
import {
  Card,
  ConfirmAction,
  CsrfField,
  DateTime,
  Field,
  FormError,
  Notice,
  OnceValue,
  PageHeader,
  StatusBadge,
} from "../../components/panel/ui.tsx";
import type { Services } from "../../lib/context.ts";
import { can, canManageMember, decide, type QuickstartAccess } from "../../lib/accounts/access.ts";
import type { PanelSession } from "../../lib/accounts/sessions.ts";
import {
  changeMemberRole,
  INVITATION_TTL_MS,
  inviteMember,
  listTeam,
  removeMember,
  revokeInvitation,
} from "../../lib/accounts/team.ts";
import { type Plan, PLANS, type Role, ROLES } from "../../lib/plans.ts";
import { allow } from "./kit/access.ts";
import { type PanelContext, type PanelEnv, subjectOf } from "./kit/context.ts";
import {
  attempt,
  field,
  type Form,
  type FormProblem,
  noticeOf,
  problemFor,
  problemOfForm,
  readForm,
  redirectWith,
} from "./kit/forms.ts";
import { renderPanel } from "./kit/render.tsx";
import { clearSessionCookie } from "./kit/session.ts";

const NOTICES = {
  "role-changed": "Role changed. It applies from their next click.",
  removed: "Member removed; their sessions in this organisation ended.",
  revoked: "Invitation withdrawn; its link no longer works.",
} as const;

const ROLE_HINT: Record<Role, string> = {
  OWNER: "Everything, including owners and the team",
  ADMIN: "Developers, refunds and the team",
  MEMBER: "Offers and payments",
};

function PlanCard(props: { plan: Plan; quickstartAccess: QuickstartAccess }) {
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
      <div class="table-wrap">
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
      </div>
      <p class="muted small">
        Developers and the Quick Start are for owners and admins whatever the plan.
      </p>
    </Card>
  );
}

function RoleSelect(props: { actor: Role; current: Role | null; name?: string; id?: string }) {
  return (
    <select name={props.name ?? "role"} id={props.id} aria-label="Role">
      {ROLES.map((role) => (
        <option
          value={role}
          selected={role === (props.current ?? "MEMBER")}
          disabled={!canManageMember(props.actor, props.current, role)}
        >
          {role.charAt(0) + role.slice(1).toLowerCase()}
        </option>
      ))}
    </select>
  );
}

/** The team: members and their roles, invitations, and the organisation's plan. */
export function createTeamPages(services: Services): Hono<PanelEnv> {
  const { accounts, clock, config } = services;

  const teamPage = async (
    c: PanelContext,
    extra: {
      invited?: { email: string; link: string };
      values?: Form;
      problem?: FormProblem | null;
    },
    status = 200,
  ) => {
    const session: PanelSession = c.get("session");
    const now = clock.now();
    const team = await listTeam(accounts, session.org.id, session.userId, now);
    const manage = can("team.manage", subjectOf(session), config.quickstartAccess);
    const notice = noticeOf(c, NOTICES);
    const problem = extra.problem ?? null;
    const values = extra.values ?? {};
    const owners = team.members.filter((member) => member.role === "OWNER").length;
    return renderPanel(services, c, {
      title: "Team and plan",
      current: "team",
      status,
      body: (
        <>
          <PageHeader
            title="Team and plan"
            description={`Who can use ${session.org.name}'s panel, and what for.`}
          />
          {notice && <Notice tone="success">{notice}</Notice>}
          {extra.invited && (
            <Notice tone="success" title={`Invitation for ${extra.invited.email} created`}>
              <p>
                Send this link to them yourself (Paystead sends no e-mail). It works once, for{" "}
                {INVITATION_TTL_MS / 86_400_000} days, and is not shown again.
              </p>
              <OnceValue id="invite-link" value={extra.invited.link} label="Invitation link" />
            </Notice>
          )}
          {problem && !extra.values && <Notice tone="error">{problem.message}</Notice>}
          <Card title="Members" id="members">
            <div class="table-wrap">
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
                  {team.members.map((member) => {
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
                                {member.role.charAt(0) + member.role.slice(1).toLowerCase()}
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
                                  : `${member.email} loses access at once; their sessions end.`}
                                {" "}
                                API keys and webhooks stay.
                              </ConfirmAction>
                            )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <p class="muted small">
              An organisation always keeps at least one owner. {Object.entries(ROLE_HINT)
                .map(([role, hint]) => `${role.charAt(0) + role.slice(1).toLowerCase()}: ${hint}.`)
                .join(" ")}
            </p>
          </Card>
          {(manage || team.invitations.length > 0) && (
            <Card title="Invitations" id="invitations">
              {team.invitations.length > 0 && (
                <div class="table-wrap">
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
                      {team.invitations.map((invitation) => (
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
                </div>
              )}
              {manage && (
                <form method="post" action="/panel/team/invitations" class="form" data-once>
                  <CsrfField token={session.csrfToken} />
                  <h3 class="form__title">Invite someone</h3>
                  <FormError
                    message={problemOfForm(extra.values ? problem : null, ["email", "role"])}
                  />
                  <div class="form__row">
                    <Field
                      name="email"
                      label="E-mail"
                      error={problemFor(extra.values ? problem : null, "email")}
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
                      error={problemFor(extra.values ? problem : null, "role")}
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
                              {role.charAt(0) + role.slice(1).toLowerCase()}: {ROLE_HINT[role]}
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
          )}
          <PlanCard plan={session.org.plan} quickstartAccess={config.quickstartAccess} />
        </>
      ),
    });
  };

  const actor = (c: PanelContext) => {
    const session = c.get("session");
    return { userId: session.userId, role: session.role };
  };

  return new Hono<PanelEnv>()
    .get("/panel/team", allow(services, "team.view"), (c) => teamPage(c, {}))
    .post("/panel/team/invitations", allow(services, "team.manage"), async (c) => {
      const form = await readForm(c);
      const session = c.get("session");
      const result = await attempt(() =>
        inviteMember(accounts, {
          orgId: session.org.id,
          actor: actor(c),
          email: field(form, "email"),
          role: field(form, "role"),
          now: clock.now(),
        })
      );
      if (!result.ok) {
        return teamPage(c, { values: form, problem: result.problem }, result.problem.status);
      }
      // The link is shown in this answer alone; no-store keeps it out of caches.
      return teamPage(c, {
        invited: {
          email: result.value.invitation.email,
          link: `${config.publicUrl}/panel/invitations/${result.value.token}`,
        },
      }, 201);
    })
    .post("/panel/team/invitations/:id/revoke", allow(services, "team.manage"), async (c) => {
      const session = c.get("session");
      await revokeInvitation(accounts, {
        orgId: session.org.id,
        actor: actor(c),
        invitationId: c.req.param("id"),
        now: clock.now(),
      });
      return redirectWith(c, "/panel/team", "revoked");
    })
    .post("/panel/team/members/:userId/role", allow(services, "team.manage"), async (c) => {
      const form = await readForm(c);
      const session = c.get("session");
      const result = await attempt(() =>
        changeMemberRole(accounts, {
          orgId: session.org.id,
          actor: actor(c),
          userId: c.req.param("userId"),
          role: field(form, "role"),
        })
      );
      if (!result.ok) return teamPage(c, { problem: result.problem }, result.problem.status);
      return redirectWith(c, "/panel/team", "role-changed");
    })
    .post("/panel/team/members/:userId/remove", allow(services, "team.view"), async (c) => {
      const session = c.get("session");
      const userId = c.req.param("userId");
      const result = await attempt(() =>
        removeMember(accounts, { orgId: session.org.id, actor: actor(c), userId })
      );
      if (!result.ok) return teamPage(c, { problem: result.problem }, result.problem.status);
      if (userId === session.userPublicId) {
        clearSessionCookie(c, config);
        return redirectWith(c, "/panel/sign-in", "signed-out");
      }
      return redirectWith(c, "/panel/team", "removed");
    });
}
