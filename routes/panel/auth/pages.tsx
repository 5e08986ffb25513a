import { AuthPage } from "../../../components/panel/AuthPage.tsx";
import { useT } from "../../../components/panel/i18n.ts";
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
  const { t } = useT();
  return (
    <AuthPage title={t("panel.signIn.title")} environment={props.environment}>
      {props.notice && <p class="callout callout--success">{props.notice}</p>}
      <FormError message={problemOfForm(problem, ["email", "password"])} />
      <form method="post" action="/panel/sign-in" class="form" data-once>
        <input type="hidden" name="next" value={props.next} />
        <Field name="email" label={t("panel.signIn.email")} error={problemFor(problem, "email")}>
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
        <Field
          name="password"
          label={t("panel.signIn.password")}
          error={problemFor(problem, "password")}
        >
          {(attrs) => <input {...attrs} type="password" autocomplete="current-password" required />}
        </Field>
        <button type="submit" class="button button--primary button--block">
          {t("panel.signIn.submit")}
        </button>
      </form>
      {props.environment === "sandbox" && (
        <p class="auth__hint">{t("panel.signIn.demo", { email: DEMO_OWNER_EMAIL })}</p>
      )}
    </AuthPage>
  );
}

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
  const { t } = useT();
  return (
    <AuthPage
      title={t("panel.invite.title", { org: invitation.orgName })}
      environment={props.environment}
    >
      <p class="auth__lead">
        {t("panel.invite.lead", {
          inviter: invitation.invitedBy ?? t("panel.invite.anOwner"),
          email: invitation.email,
          org: invitation.orgName,
          role: t(`panel.invite.role.${invitation.role}`),
        })}
      </p>
      <FormError message={problemOfForm(problem, ["password", "confirm", "name"])} />
      {visitor ? <SignedInChoice link={link} invitation={invitation} visitor={visitor} /> : (
        <>
          <p>
            {t("panel.invite.already", { email: invitation.email })}{" "}
            <a href={`/panel/sign-in?next=${encodeURIComponent(link)}`}>
              {t("panel.invite.signInToAccept")}
            </a>. {t("panel.invite.otherwise")}
          </p>
          <form method="post" action={link} class="form" data-once>
            <input
              type="hidden"
              name="email"
              value={invitation.email}
              autocomplete="username"
            />
            <Field name="name" label={t("panel.invite.name")} error={problemFor(problem, "name")}>
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
              label={t("panel.invite.password")}
              confirmLabel={t("panel.invite.confirm")}
              minLength={MIN_PASSWORD_LENGTH}
              errors={{
                password: problemFor(problem, "password"),
                confirm: problemFor(problem, "confirm"),
              }}
            />
            <button type="submit" class="button button--primary button--block">
              {t("panel.invite.create")}
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
  const { t } = useT();
  if (visitor.email !== invitation.email) {
    return (
      <>
        <p>{t("panel.invite.otherUser", { visitor: visitor.email, email: invitation.email })}</p>
        <form method="post" action="/panel/sign-out" class="form">
          <CsrfField token={visitor.csrfToken} />
          <button type="submit" class="button button--secondary button--block">
            {t("panel.user.signOut")}
          </button>
        </form>
      </>
    );
  }
  return (
    <form method="post" action={`${props.link}/accept`} class="form" data-once>
      <CsrfField token={visitor.csrfToken} />
      <button type="submit" class="button button--primary button--block">
        {t("panel.invite.accept", { org: invitation.orgName })}
      </button>
    </form>
  );
}
