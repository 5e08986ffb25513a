import { Hono } from "hono";
import { can } from "../../../lib/accounts/access.ts";
import {
  type Actor,
  changeMemberRole,
  inviteMember,
  listTeam,
  removeMember,
  revokeInvitation,
} from "../../../lib/accounts/team.ts";
import { getBusinessDetails } from "../../../lib/business_details.ts";
import type { Services } from "../../../lib/context.ts";
import { saveBusinessDetailsFromForm } from "../../../lib/panel/business_details.ts";
import { allow } from "../kit/access.ts";
import { type PanelContext, type PanelEnv, subjectOf, translatorOf } from "../kit/context.ts";
import { field, noticeOf, readForm, redirectWith, runFormAction } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { clearSessionCookie } from "../kit/session.ts";
import { type TeamOutcome, TeamPage } from "./pages.tsx";

const NOTICES = {
  "role-changed": "panel.team.roleChanged",
  removed: "panel.team.removed",
  revoked: "panel.team.revoked",
  "business-saved": "panel.team.businessSaved",
} as const;

async function renderTeam(
  services: Services,
  c: PanelContext,
  outcome: TeamOutcome,
  status = 200,
): Promise<Response> {
  const session = c.get("session");
  const { quickstartAccess } = services.config;
  const [team, business] = await Promise.all([
    listTeam(services.accounts, session.org.id, session.userId, services.clock.now()),
    getBusinessDetails(services.accounts, session.org.id),
  ]);
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.team.title"),
    current: "team",
    status,
    body: (
      <TeamPage
        session={session}
        team={team}
        manage={can("team.manage", subjectOf(session), quickstartAccess)}
        notice={noticeOf(c, NOTICES)}
        outcome={outcome}
        quickstartAccess={quickstartAccess}
        business={business}
      />
    ),
  });
}

function actorOf(c: PanelContext): Actor {
  const session = c.get("session");
  return { userId: session.userId, role: session.role };
}

/** The team and plan, mounted at `/panel/team`: members, their roles, and invitations. */
export function createTeamArea(services: Services): Hono<PanelEnv> {
  const { accounts, clock, config } = services;

  return new Hono<PanelEnv>()
    .get("/", allow(services, "team.view"), (c) => renderTeam(services, c, {}))
    .post("/invitations", allow(services, "team.manage"), async (c) => {
      const form = await readForm(c);
      const session = c.get("session");
      const result = await runFormAction(c, () =>
        inviteMember(accounts, {
          orgId: session.org.id,
          actor: actorOf(c),
          email: field(form, "email"),
          role: field(form, "role"),
          now: clock.now(),
        }));
      if (!result.ok) {
        return renderTeam(
          services,
          c,
          { values: form, problem: result.problem },
          result.problem.status,
        );
      }
      // The link is shown in this answer alone; no-store keeps it out of caches.
      return renderTeam(services, c, {
        invited: {
          email: result.value.invitation.email,
          link: `${config.publicUrl}/panel/invitations/${result.value.token}`,
        },
      }, 201);
    })
    .post("/business-details", allow(services, "team.manage"), async (c) => {
      const form = await readForm(c);
      const session = c.get("session");
      const result = await runFormAction(c, () =>
        saveBusinessDetailsFromForm(
          accounts,
          session.org.id,
          (name) => field(form, name),
          clock.now(),
        ));
      if (!result.ok) {
        return renderTeam(
          services,
          c,
          { business: { values: form, problem: result.problem } },
          result.problem.status,
        );
      }
      return redirectWith(c, "/panel/team", "business-saved");
    })
    .post("/invitations/:id/revoke", allow(services, "team.manage"), async (c) => {
      const session = c.get("session");
      await revokeInvitation(accounts, {
        orgId: session.org.id,
        actor: actorOf(c),
        invitationId: c.req.param("id"),
        now: clock.now(),
      });
      return redirectWith(c, "/panel/team", "revoked");
    })
    .post("/members/:userId/role", allow(services, "team.manage"), async (c) => {
      const form = await readForm(c);
      const session = c.get("session");
      const result = await runFormAction(c, () =>
        changeMemberRole(accounts, {
          orgId: session.org.id,
          actor: actorOf(c),
          userId: c.req.param("userId"),
          role: field(form, "role"),
        }));
      if (!result.ok) {
        return renderTeam(services, c, { problem: result.problem }, result.problem.status);
      }
      return redirectWith(c, "/panel/team", "role-changed");
    })
    .post("/members/:userId/remove", allow(services, "team.view"), async (c) => {
      const session = c.get("session");
      const userId = c.req.param("userId");
      const result = await runFormAction(
        c,
        () => removeMember(accounts, { orgId: session.org.id, actor: actorOf(c), userId }),
      );
      if (!result.ok) {
        return renderTeam(services, c, { problem: result.problem }, result.problem.status);
      }
      if (userId === session.userPublicId) {
        clearSessionCookie(c, config);
        return redirectWith(c, "/panel/sign-in", "signed-out");
      }
      return redirectWith(c, "/panel/team", "removed");
    });
}
