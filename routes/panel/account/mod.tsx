import { Hono } from "hono";
import { changePassword, signOut, switchOrganisation } from "../../../lib/accounts/sessions.ts";
import type { Services } from "../../../lib/context.ts";
import type { PanelContext, PanelEnv } from "../kit/context.ts";
import {
  field,
  type FormProblem,
  noticeOf,
  readForm,
  redirectWith,
  runFormAction,
} from "../kit/forms.ts";
import { renderPanel, renderTranslated } from "../kit/render.tsx";
import { saveLanguageChoice } from "../../../lib/panel/language.ts";
import { translatorOf } from "../kit/context.ts";
import { clearSessionCookie, clientInfo } from "../kit/session.ts";
import { AccountPage, ChoosePasswordPage } from "./pages.tsx";

const NOTICES = {
  "password-changed": "panel.account.passwordChanged",
  "language-changed": "panel.account.languageChanged",
} as const;

function renderChoosePassword(
  services: Services,
  c: PanelContext,
  problem: FormProblem | null,
  status = 200,
): Response {
  return renderTranslated(
    c,
    <ChoosePasswordPage
      environment={services.environment}
      session={c.get("session")}
      problem={problem}
    />,
    { status },
  );
}

function renderAccount(
  services: Services,
  c: PanelContext,
  problem: FormProblem | null,
  status = 200,
): Promise<Response> {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.account.title"),
    current: "account",
    status,
    body: (
      <AccountPage session={c.get("session")} notice={noticeOf(c, NOTICES)} problem={problem} />
    ),
  });
}

/**
 * The signed-in user's account, mounted at `/panel`: `/account`, `/password` (also the only
 * page of a one-time password), `/sign-out` and `/switch-organisation`.
 */
export function createAccountArea(services: Services): Hono<PanelEnv> {
  const { accounts, clock, config } = services;

  return new Hono<PanelEnv>()
    .get("/account", (c) => renderAccount(services, c, null))
    .get("/password", (c) => {
      if (!c.get("session").passwordChangeRequired) return c.redirect("/panel/account", 303);
      return renderChoosePassword(services, c, null);
    })
    .post("/password", async (c) => {
      const session = c.get("session");
      const form = await readForm(c);
      const result = await runFormAction(c, () =>
        changePassword(accounts, session, {
          current: field(form, "current"),
          password: field(form, "password"),
          confirm: field(form, "confirm"),
          client: clientInfo(c, config.trustedProxies),
          now: clock.now(),
          language: translatorOf(c).language,
        }, services.passwords));
      if (!result.ok) {
        return session.passwordChangeRequired
          ? renderChoosePassword(services, c, result.problem, result.problem.status)
          : renderAccount(services, c, result.problem, result.problem.status);
      }
      return session.passwordChangeRequired
        ? redirectWith(c, "/panel", "welcome")
        : redirectWith(c, "/panel/account", "password-changed");
    })
    .post("/account/language", async (c) => {
      const form = await readForm(c);
      const session = c.get("session");
      const result = await runFormAction(
        c,
        () => saveLanguageChoice(accounts, session.userId, field(form, "language"), clock.now()),
      );
      if (!result.ok) return renderAccount(services, c, result.problem, result.problem.status);
      return redirectWith(c, "/panel/account", "language-changed");
    })
    .post("/sign-out", async (c) => {
      await signOut(accounts, c.get("session").id);
      clearSessionCookie(c, config);
      return redirectWith(c, "/panel/sign-in", "signed-out");
    })
    .post("/switch-organisation", async (c) => {
      const form = await readForm(c);
      await switchOrganisation(accounts, c.get("session"), field(form, "org"));
      return c.redirect("/panel", 303);
    });
}
