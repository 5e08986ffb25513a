import { IntlMessageFormat } from "intl-messageformat";
import { customer as enCustomer } from "../../lib/i18n/en/customer.ts";
import { customer as plCustomer } from "../../lib/i18n/pl/customer.ts";

/** A parsed ICU element, as much of it as the walk below reads. */
interface Element {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Element[] }>;
}

const LITERAL = 0;

/** The literal text of a message, in pieces: what is left once its placeholders are taken out. */
export function literalsOf(message: string, locale: string): string[] {
  const pieces: string[] = [];
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (element.type === LITERAL) pieces.push(String(element.value));
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst() as unknown as Element[]);
  // Two-letter pieces ("to", between placeholders) are words of both languages.
  return pieces.map((piece) => piece.trim()).filter((piece) => /\p{L}.*\p{L}.*\p{L}/u.test(piece));
}

/**
 * Every piece of English the customer catalogue has that the Polish one does not share ("BLIK"
 * is both): none of these may show on a page rendered in Polish.
 */
export function englishOnlyPieces(): string[] {
  const polish = new Set(Object.values(plCustomer).flatMap((value) => literalsOf(value, "pl")));
  const pieces = Object.values(enCustomer).flatMap((value) => literalsOf(value, "en"));
  return [...new Set(pieces)].filter((piece) => !polish.has(piece));
}

/** What of the English pieces `html` shows, as whole words; empty when it is all Polish. */
export function englishIn(html: string): string[] {
  const text = html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return englishOnlyPieces().filter((piece) => {
    const escaped = piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?<!\\p{L})${escaped}(?!\\p{L})`, "u").test(text);
  });
}
