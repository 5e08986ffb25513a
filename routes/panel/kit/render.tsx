import type { ComponentChildren, VNode } from "preact";
import { PanelTranslator } from "../../../components/panel/i18n.ts";
import { AuthPage } from "../../../components/panel/AuthPage.tsx";
import { type NavKey, type PanelChrome, Shell } from "../../../components/panel/Shell.tsx";
import { publicUrlOf } from "../../../lib/config.ts";
import type { Services } from "../../../lib/context.ts";
import type { ApiError } from "../../../lib/errors.ts";
import { decide } from "../../../lib/accounts/access.ts";
import { type PanelSession, userOrganisations } from "../../../lib/accounts/sessions.ts";
import type { Translator } from "../../../lib/i18n/mod.ts";
import { panelErrorText } from "../../../lib/panel/error_text.ts";
import { wantsPage } from "../../error_pages.ts";
import { errorResponse } from "../../errors.ts";
import { renderPage } from "../../html.tsx";
import { type PanelContext, subjectOf, translatorOf } from "./context.ts";

const DAY_MS = 86_400_000;

/** The local backup's failure, else its off-site copy's: either leaves the owner exposed. */
function backupFailureOf(services: Services, tr: Translator): PanelChrome["backupFailure"] {
  const { failure, offsiteFailure } = services.backups;
  if (failure) return { at: new Date(failure.at).toISOString(), message: failure.message };
  if (offsiteFailure) {
    return {
      at: new Date(offsiteFailure.at).toISOString(),
      message: tr.t("panel.offsite.backupFailed", { message: offsiteFailure.message }),
    };
  }
  return null;
}

async function chromeOf(services: Services, c: PanelContext): Promise<PanelChrome> {
  const session = c.get("session");
  const { config } = services;
  const { provider } = services;
  const other = services.environment === "sandbox" ? "production" : "sandbox";
  const subject = subjectOf(session);
  const developers = decide("developers", subject, config.quickstartAccess);
  const offset = c.get("ctx").now() - services.clock.now();
  return {
    environment: services.environment,
    otherPanelUrl: `${publicUrlOf(config, other)}/panel`,
    clockAheadDays: Math.round(offset / DAY_MS),
    csrf: session.csrfToken,
    user: { email: session.email, name: session.name, role: session.role },
    org: { name: session.org.name, slug: session.org.slug, plan: session.org.plan },
    organisations: await userOrganisations(services.accounts, session.userId),
    developers: developers.allowed ? "open" : developers.reason === "plan" ? "upgrade" : "hidden",
    quickstart: decide("quickstart", subject, config.quickstartAccess).allowed,
    testPayments: services.environment === "production" && provider.status.testPayments
      ? { provider: provider.status.displayName, reason: provider.status.testPayments }
      : null,
    backupFailure: session.role === "OWNER" ? backupFailureOf(services, translatorOf(c)) : null,
  };
}

/** Renders a panel page (with or without the frame) in the request's language. */
export function renderTranslated(
  c: PanelContext,
  page: VNode,
  options: { status?: number; frameSelf?: boolean } = {},
): Response {
  return renderPage(
    c,
    <PanelTranslator.Provider value={translatorOf(c)}>{page}</PanelTranslator.Provider>,
    options,
  );
}

/** Renders a signed-in page in the panel's frame. */
export async function renderPanel(
  services: Services,
  c: PanelContext,
  page: {
    title: string;
    current: NavKey;
    status?: number;
    scripts?: string[];
    frameSelf?: boolean;
    body: ComponentChildren;
  },
): Promise<Response> {
  const chrome = await chromeOf(services, c);
  return renderTranslated(
    c,
    <Shell title={page.title} current={page.current} chrome={chrome} scripts={page.scripts}>
      {page.body}
    </Shell>,
    { status: page.status, frameSelf: page.frameSelf },
  );
}

/**
 * The panel's error answer: JSON for the islands, else a page in the panel's frame (or a plain
 * one when nobody is signed in). Messages of 4xx errors are written for the merchant and shown;
 * a 500 shows only the request id.
 */
export function renderPanelError(
  services: Services,
  c: PanelContext,
  error: ApiError,
): Promise<Response> {
  if (!wantsPage(c)) return Promise.resolve(errorResponse(c, error));
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  const tr = translatorOf(c);
  const { title, text } = panelErrorText(tr, error);
  const reference = error.status >= 500 ? c.get("requestId") : undefined;
  const session = c.get("session") as PanelSession | undefined;
  if (session) {
    return renderPanel(services, c, {
      title,
      current: "none",
      status: error.status,
      body: (
        <div class="error-page">
          <h1>{title}</h1>
          <p>{text}</p>
          {reference && (
            <p class="muted">
              {tr.t("panel.errorPage.reference")} <code>{reference}</code>
            </p>
          )}
          <p>
            <a href="/panel">{tr.t("panel.errorPage.home")}</a>
          </p>
        </div>
      ),
    });
  }
  return Promise.resolve(renderTranslated(
    c,
    <AuthPage title={title} environment={services.environment}>
      <p>{text}</p>
      {reference && (
        <p class="muted">
          {tr.t("panel.errorPage.reference")} <code>{reference}</code>
        </p>
      )}
      <p>
        <a href="/panel">{tr.t("panel.errorPage.panel")}</a>
      </p>
    </AuthPage>,
    { status: error.status },
  ));
}
