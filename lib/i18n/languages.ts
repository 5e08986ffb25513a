// The languages and how a request's language is chosen, apart from the catalogues (`mod.ts`): the
// API's modules need only these, and a process that has served no page or e-mail then holds no
// catalogue (issue 34, idle memory).

/** The languages customers are served in. */
export const LANGUAGES = ["pl", "en"] as const;
/** A language customers are served in. */
export type Language = typeof LANGUAGES[number];

/** Tells whether `value` names a language we serve. */
export function isLanguage(value: unknown): value is Language {
  return value === "pl" || value === "en";
}

/** The first language of an `Accept-Language` header we serve, by its q-values; null for none. */
export function languageFromAcceptLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  const ranked = header.split(",").map((part, index) => {
    const [range, ...params] = part.trim().split(";");
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    return { base: range.trim().toLowerCase().split("-")[0], q: q ? Number(q) : 1, index };
  }).filter((entry) => entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.base).find(isLanguage) ?? null;
}

/** What decides a customer's language, strongest first (CONTRACT "Customers in their language"). */
export interface LanguageSignals {
  /** `?lang=`: the customer's own switch. */
  query?: string | null;
  /** The payment's or session's `locale` (`auto` defers to the browser). */
  locale?: string | null;
  acceptLanguage?: string | null;
  /** The organisation's `defaultLanguage`. */
  organisationDefault?: Language | null;
}

/** Picks the language a customer is served in; Polish when nothing says otherwise. */
export function chooseLanguage(signals: LanguageSignals): Language {
  if (isLanguage(signals.query)) return signals.query;
  if (isLanguage(signals.locale)) return signals.locale;
  return languageFromAcceptLanguage(signals.acceptLanguage) ?? signals.organisationDefault ?? "pl";
}
