import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import type { Catalogue, MessageKey } from "./catalogue.ts";
import type { Language } from "./languages.ts";
import { customer as enCustomer } from "./en/customer.ts";
import { emails as enEmails } from "./en/emails.ts";
import { panel as enPanel } from "./en/panel.ts";
import { customer as plCustomer } from "./pl/customer.ts";
import { emails as plEmails } from "./pl/emails.ts";
import { panel as plPanel } from "./pl/panel.ts";

export type { MessageKey } from "./catalogue.ts";

export {
  chooseLanguage,
  isLanguage,
  type Language,
  languageFromAcceptLanguage,
  LANGUAGES,
  type LanguageSignals,
} from "./languages.ts";

/** Each language's whole catalogue. */
export const CATALOGUES: Readonly<Record<Language, Catalogue>> = {
  en: { ...enCustomer, ...enEmails, ...enPanel },
  pl: { ...plCustomer, ...plEmails, ...plPanel },
};

/** The BCP 47 locale whose conventions (numbers, dates) a language's pages follow. */
const LOCALES: Record<Language, string> = { pl: "pl-PL", en: "en-GB" };

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
