import { AuthPage } from "../../../components/panel/AuthPage.tsx";
import { useT } from "../../../components/panel/i18n.ts";
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
  const { t } = useT();
  return (
    <form method="post" action="/panel/password" class="form" data-once>
      <CsrfField token={session.csrfToken} />
      <input type="hidden" name="email" value={session.email} autocomplete="username" />
      <FormError message={problemOfForm(problem, ["current", "password", "confirm"])} />
      {!forced && (
        <Field
          name="current"
          label={t("panel.account.current")}
          error={problemFor(problem, "current")}
        >
          {(attrs) => <input {...attrs} type="password" autocomplete="current-password" required />}
        </Field>
      )}
      <NewPasswordFields
        label={t("panel.account.newPassword")}
        confirmLabel={t("panel.account.repeat")}
        minLength={MIN_PASSWORD_LENGTH}
        errors={{
          password: problemFor(problem, "password"),
          confirm: problemFor(problem, "confirm"),
        }}
        autofocus={forced}
      />
      <button type="submit" class={`button button--primary ${forced ? "button--block" : ""}`}>
        {t(forced ? "panel.account.saveContinue" : "panel.account.changePassword")}
      </button>
    </form>
  );
}

/** Account -> Language: English, Polski, or whatever the browser asks for. */
function LanguageForm(props: { session: PanelSession; problem: FormProblem | null }) {
  const { t } = useT();
  const chosen = props.session.language ?? "auto";
  const options = [
    ["auto", t("panel.account.languageAuto")],
    ["pl", "Polski"],
    ["en", "English"],
  ] as const;
  return (
    <form method="post" action="/panel/account/language" class="form" data-once>
      <CsrfField token={props.session.csrfToken} />
      <Field
        name="language"
        label={t("panel.account.language")}
        hint={t("panel.account.languageHint")}
        error={problemFor(props.problem, "language")}
      >
        {(attrs) => (
          <select {...attrs}>
            {options.map(([value, label]) => (
              <option
                value={value}
                selected={value === chosen}
                lang={value === "auto" ? undefined : value}
              >
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" class="button button--primary">
        {t("panel.account.languageSave")}
      </button>
    </form>
  );
}

/** The only page of someone signed in with a one-time password: choosing their own. */
export function ChoosePasswordPage(props: {
  environment: Environment;
  session: PanelSession;
  problem: FormProblem | null;
}) {
  const { session } = props;
  const { t } = useT();
  return (
    <AuthPage
      title={t("panel.account.choose.title")}
      environment={props.environment}
      csrf={session.csrfToken}
    >
      <p class="auth__lead">{t("panel.account.choose.lead", { email: session.email })}</p>
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
  const { t } = useT();
  const languageProblem = props.problem?.param === "language";
  return (
    <>
      <PageHeader
        title={t("panel.account.title")}
        description={t("panel.account.description")}
      />
      {notice && <Notice tone="success">{notice}</Notice>}
      <div class="grid grid--2">
        <Card title={t("panel.account.you")} id="you">
          <Facts>
            <Fact label={t("panel.account.email")}>{session.email}</Fact>
            <Fact label={t("panel.account.name")}>{session.name ?? t("panel.none")}</Fact>
            <Fact label={t("panel.account.role")}>
              {t("panel.user.roleOf", {
                role: t(`panel.role.${session.role}`),
                org: session.org.name,
              })}
            </Fact>
            <Fact label={t("panel.account.signedIn")}>
              <DateTime at={session.createdAt} />
            </Fact>
            <Fact label={t("panel.account.sessionEnds")}>
              <DateTime at={session.expiresAt} />
            </Fact>
          </Facts>
          <p class="muted">
            {t("panel.account.sessions", {
              idle: SESSION_IDLE_MS / 3_600_000,
              absolute: SESSION_ABSOLUTE_MS / 3_600_000,
            })}
          </p>
        </Card>
        <Card title={t("panel.account.changePassword")} id="password">
          <PasswordForm session={session} problem={languageProblem ? null : props.problem} />
        </Card>
        <Card title={t("panel.account.language")} id="language">
          <LanguageForm session={session} problem={languageProblem ? props.problem : null} />
        </Card>
      </div>
    </>
  );
}
