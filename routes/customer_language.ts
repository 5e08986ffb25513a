import type { Context } from "hono";
import type { LanguageSwitchLink } from "../components/LanguageSwitch.tsx";
import type { LanguageRequest } from "../lib/checkout/pages.ts";
import { isLanguage, type Language, translator } from "../lib/i18n/mod.ts";

/** What a request says about its customer's language: `?lang=` and `Accept-Language`. */
export function languageRequest(c: Context): LanguageRequest {
  return { query: c.req.query("lang"), acceptLanguage: c.req.header("accept-language") };
}

/** `?lang=xx` when the customer chose a language, so the page's links and forms keep it. */
export function langQuery(c: Context): string {
  const lang = c.req.query("lang");
  return isLanguage(lang) ? `?lang=${lang}` : "";
}

/** The link from a page at `path` in `language` to the same page in the other language. */
export function switchLink(path: string, language: Language): LanguageSwitchLink {
  const other: Language = language === "pl" ? "en" : "pl";
  return {
    href: `${sameOriginPath(path)}?lang=${other}`,
    lang: other,
    label: translator(language).t("language.switch"),
  };
}

/** `path` with its leading slashes and backslashes collapsed to one `/`: `//host/x` and `/\\host/x`
 * are links to another site, never to this one. */
export function sameOriginPath(path: string): string {
  return path.replace(/^[/\\]+/, "/");
}
