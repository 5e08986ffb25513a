import type { Store } from "../../db/client.ts";
import type { AccountsSchema } from "../../db/schema.ts";
import { updateUserLanguage } from "../../db/users.ts";
import { ApiError } from "../errors.ts";
import { isLanguage, type Language, languageFromAcceptLanguage } from "../i18n/languages.ts";

/** The panel's language: the user's own choice, else the browser's, else English. */
export function panelLanguage(
  choice: Language | null | undefined,
  acceptLanguage: string | null | undefined,
): Language {
  return choice ?? languageFromAcceptLanguage(acceptLanguage) ?? "en";
}

/**
 * Stores the panel language a user chose: `pl`, `en`, or `auto` (null: follow the browser).
 * Anything else is a 400 that changes nothing.
 */
export async function saveLanguageChoice(
  accounts: Store<AccountsSchema>,
  userId: number,
  value: string,
  now: number,
): Promise<Language | null> {
  if (value !== "auto" && !isLanguage(value)) {
    throw new ApiError("parameter_invalid", "Choose English, Polski or the browser's language.", {
      param: "language",
    });
  }
  const language = value === "auto" ? null : value;
  await accounts.write((trx) => updateUserLanguage(trx, userId, language, now));
  return language;
}
