import type { Context } from "hono";
import type { ApiKeyAuthenticator } from "../../../lib/api_keys.ts";
import type { OrgContext, Services } from "../../../lib/context.ts";
import type { PanelSession } from "../../../lib/accounts/sessions.ts";
import { type Translator, translator } from "../../../lib/i18n/mod.ts";
import { panelLanguage } from "../../../lib/panel/language.ts";
import type { AppEnv } from "../../env.ts";

/** What the panel's routes are built on. */
export interface PanelDeps {
  services: Services;
  /** Forgotten keys must stop working at once in this process (the API caches keys briefly). */
  authenticator: ApiKeyAuthenticator;
  /** Builds the API's OpenAPI document, as `/api/v1/openapi.json` serves it. */
  openApi: () => unknown;
}

/** Variables of a signed-in panel request. */
export interface PanelEnv {
  Bindings: AppEnv["Bindings"];
  Variables: AppEnv["Variables"] & { session: PanelSession };
}

export type PanelContext = Context<PanelEnv>;

/** The organisation context of a signed-in request. */
export function orgCtx(c: PanelContext): OrgContext {
  return c.get("ctx");
}

/** Who asks, for the access rules. */
export function subjectOf(session: PanelSession) {
  return { role: session.role, plan: session.org.plan };
}

/**
 * The translator of a panel request: the signed-in user's language, else the browser's, else
 * English.
 */
export function translatorOf(c: Context): Translator {
  const session = c.get("session") as PanelSession | undefined;
  return translator(panelLanguage(session?.language, c.req.header("accept-language")));
}
