import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import type { Catalogue, MessageKey } from "./catalogue.ts";
import { customer as enCustomer } from "./en/customer.ts";
import { emails as enEmails } from "./en/emails.ts";
import { panel as enPanel } from "./en/panel.ts";
import { customer as plCustomer } from "./pl/customer.ts";
import { emails as plEmails } from "./pl/emails.ts";
import { panel as plPanel } from "./pl/panel.ts";

export type { MessageKey } from "./catalogue.ts";

/** The languages customers are served in. */
export const LANGUAGES = ["pl", "en"] as const;
/** A language customers are served in. */
export type Language = typeof LANGUAGES[number];

/** Each language's whole catalogue. */
export const CATALOGUES: Readonly<Record<Language, Catalogue>> = {
  en: { ...enCustomer, ...enEmails, ...enPanel },
  pl: { ...plCustomer, ...plEmails, ...plPanel },
};

/** The BCP 47 locale whose conventions (numbers, dates) a language's pages follow. */
const LOCALES: Record<Language, string> = { pl: "pl-PL", en: "en-GB" };

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

/** Formats messages, amounts and dates in one language. */
export interface Translator {
  readonly language: Language;
  /** The message `key`, with `values` put into its ICU placeholders. */
  t(key: MessageKey, values?: Record<string, PrimitiveType>): string;
  /** Minor units as people of this language write money: `12,50 zł`, `PLN 12.50`. */
  money(amount: number, currency: string): string;
  /** An instant as a date and time of day in `timeZone` (Europe/Warsaw unless told). */
  dateTime(at: number, timeZone?: string): string;
}

const formats = new Map<string, IntlMessageFormat>();

function compiled(language: Language, key: MessageKey): IntlMessageFormat {
  const id = `${language}:${key}`;
  let format = formats.get(id);
  if (!format) {
    format = new IntlMessageFormat(CATALOGUES[language][key], LOCALES[language]);
    formats.set(id, format);
  }
  return format;
}

const translators = new Map<Language, Translator>();

/** The translator of `language`, made once per process. */
export function translator(language: Language): Translator {
  let found = translators.get(language);
  if (found) return found;
  const locale = LOCALES[language];
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  const plain = new Map<MessageKey, string>();
  found = {
    language,
    t(key, values) {
      if (values !== undefined) return String(compiled(language, key).format(values));
      // A message without values reads the same every time: formatted once.
      let text = plain.get(key);
      if (text === undefined) plain.set(key, text = String(compiled(language, key).format()));
      return text;
    },
    money(amount, currency) {
      let format = moneyFormats.get(currency);
      if (!format) {
        format = new Intl.NumberFormat(locale, { style: "currency", currency });
        moneyFormats.set(currency, format);
      }
      const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
      return format.format(amount / 10 ** digits);
    },
    dateTime: (at, timeZone = "Europe/Warsaw") =>
      new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone })
        .format(at),
  };
  translators.set(language, found);
  return found;
}
