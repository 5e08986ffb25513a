import { AuthPage } from "../../../components/panel/AuthPage.tsx";
import { CsrfField, Field, FormError, NewPasswordFields } from "../../../components/panel/ui.tsx";
import { MIN_PASSWORD_LENGTH } from "../../../lib/accounts/sessions.ts";
import type { InvitationView } from "../../../lib/accounts/team.ts";
import type { Environment } from "../../../lib/config.ts";
import { DEMO_OWNER_EMAIL } from "../../../lib/demo.ts";
import { type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";

/** The sign-in form, with what went wrong or a notice (signed out). */
export function SignInPage(props: {
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

/** An invitation link: create an account and join, or accept as the signed-in visitor. */
export function InvitationPage(props: {
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
