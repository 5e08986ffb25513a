/** ISO 4217 codes the runtime knows, upper case. */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency").map((code) => code.toUpperCase()));

/** The largest amount, in minor units, an offer or payment may carry. */
export const MAX_AMOUNT = 100_000_000_000;

/** Every currency code `isCurrency` accepts, sorted (the API document lists them). */
export const CURRENCY_CODES: readonly string[] = [...CURRENCIES].filter((code) =>
  /^[A-Z]{3}$/.test(code)
).sort();

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

const digitsByCurrency = new Map<string, number>();

/** How many minor-unit digits a currency has (2 for PLN, 0 for JPY, 3 for KWD). */
export function currencyDigits(currency: string): number {
  // Remembered: an export asks for every row, and a NumberFormat costs microseconds to build.
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/**
 * Reads an amount a person typed in major units ("12.50", "12,50", "1 250", "1,250.00") as minor
 * units; null when it is not a plain positive number or has more decimals than the currency.
 */
export function parseMajorAmount(text: string, currency: string): number | null {
  let value = text.trim().replace(/[\s\u00a0]/g, "");
  if (value.includes(".") && value.includes(",")) value = value.replace(/,/g, "");
  const match = /^(\d{1,15})(?:[.,](\d+))?$/.exec(value);
  if (!match) return null;
  const digits = currencyDigits(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}

/** Minor units as a plain major-unit number for a form field: `1250, "PLN"` is `12.50`. */
export function formatMajorAmount(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}
