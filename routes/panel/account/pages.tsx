import { AuthPage } from "../../../components/panel/AuthPage.tsx";
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
} from "../../../components/panel/ui.tsx";
import {
  MIN_PASSWORD_LENGTH,
  type PanelSession,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
} from "../../../lib/accounts/sessions.ts";
import type { Environment } from "../../../lib/config.ts";
import { type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";

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

/** The only page of someone signed in with a one-time password: choosing their own. */
export function ChoosePasswordPage(props: {
  environment: Environment;
  session: PanelSession;
  problem: FormProblem | null;
}) {
  const { session } = props;
  return (
    <AuthPage
      title="Choose your password"
      environment={props.environment}
      csrf={session.csrfToken}
    >
      <p class="auth__lead">
        You signed in as <strong>{session.email}</strong>{" "}
        with a one-time password. Choose your own to continue; the one-time password stops working.
      </p>
      <PasswordForm session={session} problem={props.problem} />
    </AuthPage>
  );
}

/** The signed-in user's account: who they are, their session, and changing the password. */
export function AccountPage(props: {
  session: PanelSession;
  notice: string | null;
  problem: FormProblem | null;
}) {
  const { session, notice } = props;
  return (
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
          <PasswordForm session={session} problem={props.problem} />
        </Card>
      </div>
    </>
  );
}
