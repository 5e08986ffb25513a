import { Hono } from "hono";
import { AuthPage } from "../../components/panel/AuthPage.tsx";
import {
  Card,
  CsrfField,
  DateTime,
  Fact,
  Facts,
  Field,
  FormError,
  NewPasswordFields,
  Notice,
  PageHeader,
} from "../../components/panel/ui.tsx";
import type { Services } from "../../lib/context.ts";
import {
  changePassword,
  MIN_PASSWORD_LENGTH,
  type PanelSession,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  signOut,
  switchOrganisation,
} from "../../lib/accounts/sessions.ts";
import { renderPage } from "../html.tsx";
import { type PanelContext, type PanelEnv } from "./kit/context.ts";
import {
  attempt,
  field,
  type FormProblem,
  noticeOf,
  problemFor,
  problemOfForm,
  readForm,
  redirectWith,
} from "./kit/forms.ts";
import { renderPanel } from "./kit/render.tsx";
import { clearSessionCookie, clientInfo } from "./kit/session.ts";

function PasswordForm(props: { session: PanelSession; problem: FormProblem | null }) {
  const { session, problem } = props;
  const forced = session.passwordChangeRequired;
  return (
    <form method="post" action="/panel/password" class="form" data-once>
      <CsrfField token={session.csrfToken} />
      <input type="hidden" name="email" value={session.email} autocomplete="username" />
      <FormError message={problemOfForm(problem, ["current", "password", "confirm"])} />
      {!forced && (
        <Field name="current" label="Current password" error={problemFor(problem, "current")}>
          {(attrs) => <input {...attrs} type="password" autocomplete="current-password" required />}
        </Field>
      )}
      <NewPasswordFields
        label="New password"
        confirmLabel="Repeat the new password"
        minLength={MIN_PASSWORD_LENGTH}
        errors={{
          password: problemFor(problem, "password"),
          confirm: problemFor(problem, "confirm"),
        }}
        autofocus={forced}
      />
      <button type="submit" class={`button button--primary ${forced ? "button--block" : ""}`}>
        {forced ? "Save and continue" : "Change password"}
      </button>
    </form>
  );
}

function hours(ms: number): string {
  return `${ms / 3_600_000} hours`;
}

const NOTICES = {
  "password-changed": "Your password is changed. Your other sessions were signed out.",
} as const;

/** The signed-in user's account: password, sign-out, switching organisation. */
export function createAccountPages(services: Services): Hono<PanelEnv> {
  const { accounts, clock, config } = services;

  const forcedPage = (c: PanelContext, problem: FormProblem | null, status = 200) => {
    const session = c.get("session");
    return renderPage(
      c,
      <AuthPage
        title="Choose your password"
        environment={services.environment}
        csrf={session.csrfToken}
      >
        <p class="auth__lead">
          You signed in as <strong>{session.email}</strong>{" "}
          with a one-time password. Choose your own to continue; the one-time password stops
          working.
        </p>
        <PasswordForm session={session} problem={problem} />
      </AuthPage>,
      { status },
    );
  };

  const accountPage = (c: PanelContext, problem: FormProblem | null, status = 200) => {
    const session = c.get("session");
    const notice = noticeOf(c, NOTICES);
    return renderPanel(services, c, {
      title: "Account",
      current: "account",
      status,
      body: (
        <>
          <PageHeader
            title="Account"
            description="Your sign-in, for every organisation you belong to."
          />
          {notice && <Notice tone="success">{notice}</Notice>}
          <div class="grid grid--2">
            <Card title="You" id="you">
              <Facts>
                <Fact label="E-mail">{session.email}</Fact>
                <Fact label="Name">{session.name ?? "—"}</Fact>
                <Fact label="Role">
                  {`${session.role.charAt(0)}${
                    session.role.slice(1).toLowerCase()
                  } of ${session.org.name}`}
                </Fact>
                <Fact label="Signed in">
                  <DateTime at={session.createdAt} />
                </Fact>
                <Fact label="Session ends">
                  <DateTime at={session.expiresAt} />
                </Fact>
              </Facts>
              <p class="muted">
                Sessions end after {hours(SESSION_IDLE_MS)} without activity and{" "}
                {hours(SESSION_ABSOLUTE_MS)} after signing in.
              </p>
            </Card>
            <Card title="Change password" id="password">
              <PasswordForm session={session} problem={problem} />
            </Card>
          </div>
        </>
      ),
    });
  };

  return new Hono<PanelEnv>()
    .get("/panel/account", (c) => accountPage(c, null))
    .get("/panel/password", (c) => {
      if (!c.get("session").passwordChangeRequired) return c.redirect("/panel/account", 303);
      return forcedPage(c, null);
    })
    .post("/panel/password", async (c) => {
      const session = c.get("session");
      const form = await readForm(c);
      const result = await attempt(() =>
        changePassword(accounts, session, {
          current: field(form, "current"),
          password: field(form, "password"),
          confirm: field(form, "confirm"),
          client: clientInfo(c, services.config.trustedProxies),
          now: clock.now(),
        }, services.passwords)
      );
      if (!result.ok) {
        for (const [name, value] of Object.entries(result.problem.headers ?? {})) {
          c.header(name, value);
        }
        return session.passwordChangeRequired
          ? forcedPage(c, result.problem, result.problem.status)
          : accountPage(c, result.problem, result.problem.status);
      }
      return session.passwordChangeRequired
        ? redirectWith(c, "/panel", "welcome")
        : redirectWith(c, "/panel/account", "password-changed");
    })
    .post("/panel/sign-out", async (c) => {
      await signOut(accounts, c.get("session").id);
      clearSessionCookie(c, config);
      return redirectWith(c, "/panel/sign-in", "signed-out");
    })
    .post("/panel/switch-organisation", async (c) => {
      const form = await readForm(c);
      await switchOrganisation(accounts, c.get("session"), field(form, "org"));
      return c.redirect("/panel", 303);
    });
}
