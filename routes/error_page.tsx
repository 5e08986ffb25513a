import type { Context } from "hono";
import { MessagePage } from "../components/MessagePage.tsx";
import type { ApiError } from "../lib/errors.ts";
import { chooseLanguage, type Language, translator } from "../lib/i18n/mod.ts";
import { languageRequest, switchLink } from "./customer_language.ts";
import type { AppEnv } from "./env.ts";
import { renderPage } from "./html.tsx";

/** The statuses a customer's error page explains in its own words; others are "went wrong". */
const CUSTOMER_STATUSES = [400, 403, 404, 409, 429] as const;

/**
 * What a customer's error page for `error` says, in `language`. Never the error's own message,
 * which is written for developers and may name internals.
 */
export function customerErrorText(
  error: ApiError,
  language: Language,
): { title: string; text: string } {
  const { t } = translator(language);
  const status = CUSTOMER_STATUSES.find((known) => known === error.status);
  if (status === undefined) return { title: t("error.other.title"), text: t("error.other.text") };
  return { title: t(`error.${status}.title`), text: t(`error.${status}.text`) };
}

/** The page a person is shown for `error`, in the language their request asks for. */
export function errorPage(c: Context<AppEnv>, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  // Only the request speaks here: the payment or session it named may not exist.
  const language = chooseLanguage(languageRequest(c));
  const { title, text } = customerErrorText(error, language);
  const reference = error.status >= 500
    ? translator(language).t("error.reference", { requestId: c.get("requestId") })
    : undefined;
  return renderPage(
    c,
    <MessagePage
      title={title}
      tone="error"
      reference={reference}
      lang={language}
      switchTo={c.req.method === "GET" ? switchLink(c.req.path, language) : undefined}
    >
      <p>{text}</p>
    </MessagePage>,
    { status: error.status },
  );
}
