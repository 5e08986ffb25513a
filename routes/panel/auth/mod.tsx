import { Hono } from "hono";
import { authenticateSession, signIn } from "../../../lib/accounts/sessions.ts";
import { acceptInvitation, joinInvitation, loadInvitation } from "../../../lib/accounts/team.ts";
import type { Services } from "../../../lib/context.ts";
import { sameOriginOnly } from "../../middleware/same_origin.ts";
import { type PanelEnv, translatorOf } from "../kit/context.ts";
import { field, noticeOf, readForm, redirectWith, runFormAction } from "../kit/forms.ts";
import { renderTranslated } from "../kit/render.tsx";
import {
  clientInfo,
  requireSession,
  safeNext,
  sessionToken,
  setSessionCookie,
  verifyCsrf,
} from "../kit/session.ts";
import { InvitationPage, SignInPage } from "./pages.tsx";

const SIGN_IN_NOTICES = { "signed-out": "panel.signIn.signedOut" } as const;

/**
 * Sign-in and invitation links, the pages before a session exists, at `/panel/sign-in` and
 * `/panel/invitations/:token`: mounted at `/panel`, before the session check.
 */
export function createAuthArea(services: Services): Hono<PanelEnv> {
  const { config, accounts, clock, passwords, environment } = services;

  return new Hono<PanelEnv>()
    .get("/sign-in", async (c) => {
      const next = safeNext(c.req.query("next"));
      const session = await authenticateSession(accounts, sessionToken(c, config), clock.now());
      if (session) return c.redirect(next, 303);
      const notice = noticeOf(c, SIGN_IN_NOTICES);
      return renderTranslated(
        c,
        <SignInPage
          environment={environment}
          next={next}
          email=""
          problem={null}
          notice={notice}
        />,
      );
    })
    .post("/sign-in", sameOriginOnly(services), async (c) => {
      const form = await readForm(c);
      const next = safeNext(field(form, "next"));
      const result = await runFormAction(c, () =>
        signIn(accounts, {
          email: field(form, "email"),
          password: field(form, "password"),
          client: clientInfo(c, config.trustedProxies),
          now: clock.now(),
        }, passwords));
      if (!result.ok) {
        return renderTranslated(
          c,
          <SignInPage
            environment={environment}
            next={next}
            email={field(form, "email")}
            problem={result.problem}
            notice={null}
          />,
          { status: result.problem.status },
        );
      }
      setSessionCookie(c, config, result.value);
      return c.redirect(next, 303);
    })
    .get("/invitations/:token", async (c) => {
      const token = c.req.param("token");
      const now = clock.now();
      const invitation = await loadInvitation(accounts, token, now);
      const session = await authenticateSession(accounts, sessionToken(c, config), now);
      return renderTranslated(
        c,
        <InvitationPage
          environment={environment}
          token={token}
          invitation={invitation}
          visitor={session && { email: session.email, csrfToken: session.csrfToken }}
          problem={null}
          name=""
        />,
      );
    })
    .post("/invitations/:token/accept", requireSession(services), verifyCsrf, async (c) => {
      await joinInvitation(accounts, {
        token: c.req.param("token"),
        session: c.get("session"),
        now: clock.now(),
      });
      return redirectWith(c, "/panel", "joined");
    })
    .post("/invitations/:token", sameOriginOnly(services), async (c) => {
      const token = c.req.param("token");
      const form = await readForm(c);
      const now = clock.now();
      const result = await runFormAction(c, () =>
        acceptInvitation(accounts, {
          token,
          name: field(form, "name"),
          password: field(form, "password"),
          confirm: field(form, "confirm"),
          client: clientInfo(c, config.trustedProxies),
          now,
          language: translatorOf(c).language,
        }, passwords));
      if (!result.ok) {
        const invitation = await loadInvitation(accounts, token, now);
        return renderTranslated(
          c,
          <InvitationPage
            environment={environment}
            token={token}
            invitation={invitation}
            visitor={null}
            problem={result.problem}
            name={field(form, "name")}
          />,
          { status: result.problem.status },
        );
      }
      setSessionCookie(c, config, result.value);
      return redirectWith(c, "/panel", "joined");
    });
}
