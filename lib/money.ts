/** ISO 4217 codes the runtime knows, upper case. */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency").map((code) => code.toUpperCase()));

/** The largest amount, in minor units, an offer or payment may carry. */
export const MAX_AMOUNT = 100_000_000_000;

/** Tells whether `code` is an ISO 4217 currency code in upper case. */
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}

/** Formats minor units for people: `formatMoney(4999, "PLN")` is `PLN 49.99` in English. */
export function formatMoney(amount: number, currency: string, locale = "en"): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}
