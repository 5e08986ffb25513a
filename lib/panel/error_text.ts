import type { MessageKey, Translator } from "../i18n/mod.ts";

/**
 * The domain's error messages the panel shows, recognised by their English wording (the API
 * answers in English and keeps doing so) and said again from the catalogue. Named groups become
 * the message's values. A message no pattern knows is shown as it is.
 */
const PATTERNS: readonly (readonly [RegExp, MessageKey])[] = [];

/** `message`, an ApiError's English text, in the translator's language. */
export function translateError(tr: Translator, message: string): string {
  if (tr.language === "en") return message;
  for (const [pattern, key] of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return tr.t(key, match.groups);
  }
  return message;
}
