import { Hono } from "hono";
import { AuthPage } from "../../components/panel/AuthPage.tsx";
import { CsrfField, Field, FormError, NewPasswordFields } from "../../components/panel/ui.tsx";
import type { Environment } from "../../lib/config.ts";
import type { Services } from "../../lib/context.ts";
import { DEMO_OWNER_EMAIL } from "../../lib/demo.ts";
import { authenticateSession, MIN_PASSWORD_LENGTH, signIn } from "../../lib/accounts/sessions.ts";
import {
  acceptInvitation,
  type InvitationView,
  joinInvitation,
  loadInvitation,
} from "../../lib/accounts/team.ts";
import { sameOriginOnly } from "../middleware/same_origin.ts";
import { renderPage } from "../html.tsx";
import { type PanelEnv } from "./kit/context.ts";
import {
  attempt,
  field,
  type FormProblem,
  problemFor,
  problemOfForm,
  readForm,
  redirectWith,
} from "./kit/forms.ts";
import {
  clientInfo,
  requireSession,
  safeNext,
  sessionToken,
  setSessionCookie,
  verifyCsrf,
} from "./kit/session.ts";
import type { Context } from "hono";

function SignInPage(props: {
  environment: Environment;
  next: string;
  email: string;
  problem: FormProblem | null;
  notice: string | null;
}) {
  const { problem } = props;
  return (
    <AuthPage title="Sign in" environment={props.environment}>
      {props.notice && <p class="callout callout--success">{props.notice}</p>}
      <FormError message={problemOfForm(problem, ["email", "password"])} />
      <form method="post" action="/panel/sign-in" class="form" data-once>
        <input type="hidden" name="next" value={props.next} />
        <Field name="email" label="E-mail" error={problemFor(problem, "email")}>
          {(attrs) => (
            <input
              {...attrs}
              type="email"
              autocomplete="username"
              required
              value={props.email}
              autofocus
            />
          )}
        </Field>
        <Field name="password" label="Password" error={problemFor(problem, "password")}>
          {(attrs) => <input {...attrs} type="password" autocomplete="current-password" required />}
        </Field>
        <button type="submit" class="button button--primary button--block">Sign in</button>
      </form>
      {props.environment === "sandbox" && (
        <p class="auth__hint">
          First start? The demo owner <code>{DEMO_OWNER_EMAIL}</code>{" "}
          and a one-time password were printed by the server when it created the demo organisation.
          Team members get an invitation link instead.
        </p>
      )}
    </AuthPage>
  );
}

const ROLE_TEXT = {
  OWNER: "an owner (everything, including the team and owners)",
  ADMIN: "an admin (integration, refunds and the team)",
  MEMBER: "a member (offers and payments)",
} as const;

/** Who the invitation page's visitor is signed in as, if anyone. */
interface Visitor {
  email: string;
  csrfToken: string;
}

function InvitationPage(props: {
  environment: Environment;
  token: string;
  invitation: InvitationView;
  visitor: Visitor | null;
  problem: FormProblem | null;
  name: string;
}) {
  const { invitation, problem, visitor } = props;
  const link = `/panel/invitations/${props.token}`;
  return (
    <AuthPage title={`Join ${invitation.orgName}`} environment={props.environment}>
      <p class="auth__lead">
        {invitation.invitedBy ?? "An owner"} invited <strong>{invitation.email}</strong> to join
        {" "}
        <strong>{invitation.orgName}</strong> as {ROLE_TEXT[invitation.role]}.
      </p>
      <FormError message={problemOfForm(problem, ["password", "confirm", "name"])} />
      {visitor ? <SignedInChoice link={link} invitation={invitation} visitor={visitor} /> : (
        <>
          <p>
            Already use Paystead as {invitation.email}?{" "}
            <a href={`/panel/sign-in?next=${encodeURIComponent(link)}`}>Sign in to accept</a>.
            Otherwise choose your name and password here.
          </p>
          <form method="post" action={link} class="form" data-once>
            <input
              type="hidden"
              name="email"
              value={invitation.email}
              autocomplete="username"
            />
            <Field name="name" label="Your name" error={problemFor(problem, "name")}>
              {(attrs) => (
                <input
                  {...attrs}
                  type="text"
                  autocomplete="name"
                  maxLength={100}
                  value={props.name}
                />
              )}
            </Field>
            <NewPasswordFields
              label="Choose a password"
              confirmLabel="Repeat the password"
              minLength={MIN_PASSWORD_LENGTH}
              errors={{
                password: problemFor(problem, "password"),
                confirm: problemFor(problem, "confirm"),
              }}
            />
            <button type="submit" class="button button--primary button--block">
              Create my account and join
            </button>
          </form>
        </>
      )}
    </AuthPage>
  );
}

function SignedInChoice(
  props: { link: string; invitation: InvitationView; visitor: Visitor },
) {
  const { invitation, visitor } = props;
  if (visitor.email !== invitation.email) {
    return (
      <>
        <p>
          You are signed in as <strong>{visitor.email}</strong>. Sign out, then sign in as{" "}
          {invitation.email} and open this link again to accept.
        </p>
        <form method="post" action="/panel/sign-out" class="form">
          <CsrfField token={visitor.csrfToken} />
          <button type="submit" class="button button--secondary button--block">Sign out</button>
        </form>
      </>
    );
  }
  return (
    <form method="post" action={`${props.link}/accept`} class="form" data-once>
      <CsrfField token={visitor.csrfToken} />
      <button type="submit" class="button button--primary button--block">
        Accept and open {invitation.orgName}
      </button>
    </form>
  );
}

/** Sign-in and invitation links: the pages before a session exists. */
export function createAuthPages(services: Services): Hono<PanelEnv> {
  const { config, accounts, clock, passwords } = services;
  const render = (c: Context<PanelEnv>, page: preact.VNode, status = 200) =>
    renderPage(c, page, { status });

  return new Hono<PanelEnv>()
    .get("/panel/sign-in", async (c) => {
      const next = safeNext(c.req.query("next"));
      const session = await authenticateSession(accounts, sessionToken(c, config), clock.now());
      if (session) return c.redirect(next, 303);
      const notice = c.req.query("notice") === "signed-out" ? "You are signed out." : null;
      return render(
        c,
        <SignInPage
          environment={services.environment}
          next={next}
          email=""
          problem={null}
          notice={notice}
        />,
      );
    })
    .post("/panel/sign-in", sameOriginOnly(services), async (c) => {
      const form = await readForm(c);
      const next = safeNext(field(form, "next"));
      const result = await attempt(() =>
        signIn(accounts, {
          email: field(form, "email"),
          password: field(form, "password"),
          client: clientInfo(c, services.config.trustedProxies),
          now: clock.now(),
        }, passwords)
      );
      if (!result.ok) {
        for (const [name, value] of Object.entries(result.problem.headers ?? {})) {
          c.header(name, value);
        }
        return render(
          c,
          <SignInPage
            environment={services.environment}
            next={next}
            email={field(form, "email")}
            problem={result.problem}
            notice={null}
          />,
          result.problem.status,
        );
      }
      setSessionCookie(c, config, result.value);
      return c.redirect(next, 303);
    })
    .get("/panel/invitations/:token", async (c) => {
      const token = c.req.param("token");
      const now = clock.now();
      const invitation = await loadInvitation(accounts, token, now);
      const session = await authenticateSession(accounts, sessionToken(c, config), now);
      return render(
        c,
        <InvitationPage
          environment={services.environment}
          token={token}
          invitation={invitation}
          visitor={session && { email: session.email, csrfToken: session.csrfToken }}
          problem={null}
          name=""
        />,
      );
    })
    .post("/panel/invitations/:token/accept", requireSession(services), verifyCsrf, async (c) => {
      await joinInvitation(accounts, {
        token: c.req.param("token"),
        session: c.get("session"),
        now: clock.now(),
      });
      return redirectWith(c, "/panel", "joined");
    })
    .post("/panel/invitations/:token", sameOriginOnly(services), async (c) => {
      const token = c.req.param("token");
      const form = await readForm(c);
      const now = clock.now();
      const result = await attempt(() =>
        acceptInvitation(accounts, {
          token,
          name: field(form, "name"),
          password: field(form, "password"),
          confirm: field(form, "confirm"),
          client: clientInfo(c, services.config.trustedProxies),
          now,
        }, passwords)
      );
      if (!result.ok) {
        const invitation = await loadInvitation(accounts, token, now);
        return render(
          c,
          <InvitationPage
            environment={services.environment}
            token={token}
            invitation={invitation}
            visitor={null}
            problem={result.problem}
            name={field(form, "name")}
          />,
          result.problem.status,
        );
      }
      setSessionCookie(c, config, result.value);
      return redirectWith(c, "/panel", "joined");
    });
}
