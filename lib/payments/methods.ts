import type { Services } from "../context.ts";
import { ApiError } from "../errors.ts";
import type { Language } from "../i18n/languages.ts";
import { errorFields } from "../log.ts";
import type { OfferedMethod as ApiOfferedMethod } from "./schemas.ts";
import {
  flowOf,
  type MethodChoice,
  type OfferedBank,
  type OfferedMethod,
  PAYMENT_METHODS,
  type PaymentMethod,
  type PaymentProvider,
} from "../providers/mod.ts";

/** How long a provider's list of methods is kept: the contract's "at most 5 minutes". */
export const METHODS_TTL_MS = 5 * 60_000;

/** How long a failed question is kept: pages do not wait on a provider that is down each time. */
export const METHODS_FAILURE_TTL_MS = 30_000;

interface Kept {
  at: number;
  ttl: number;
  methods: Promise<OfferedMethod[]>;
}

/**
 * The methods each provider offers, asked at most every 5 minutes per currency and language;
 * callers asking while a question is on its way share it. A failed question is kept 30 s, so
 * an outage costs one wait, not one per page.
 */
export class MethodCatalogue {
  readonly #kept = new Map<string, Kept>();

  constructor(readonly now: () => number) {}

  /** What `provider` offers now, from the list kept or a new question. */
  offered(
    provider: PaymentProvider,
    currency: string,
    language: Language,
  ): Promise<OfferedMethod[]> {
    const key = `${provider.name}:${currency}:${language}`;
    const kept = this.#kept.get(key);
    if (kept && this.now() - kept.at < kept.ttl) return kept.methods;
    const methods = provider.paymentMethods(currency, language);
    const entry = { at: this.now(), ttl: METHODS_TTL_MS, methods };
    this.#kept.set(key, entry);
    methods.catch(() => {
      entry.at = this.now();
      entry.ttl = METHODS_FAILURE_TTL_MS;
    });
    return methods;
  }
}

function inRange(item: { minAmount?: number; maxAmount?: number }, amount: number | null): boolean {
  if (amount === null) return true;
  return (item.minAmount === undefined || amount >= item.minAmount) &&
    (item.maxAmount === undefined || amount <= item.maxAmount);
}

/**
 * What a customer may be offered for `amount` (null: any amount): DISABLED methods and banks and
 * those out of their range left out, a transfer without a bank left out, temporarily disabled
 * ones kept as such; only the methods `allowed` names, when it names some.
 */
export function availableMethods(
  offered: OfferedMethod[],
  amount: number | null,
  allowed: readonly PaymentMethod[] | null = null,
): OfferedMethod[] {
  return offered.flatMap((method) => {
    if (method.status === "DISABLED" || !inRange(method, amount)) return [];
    if (allowed !== null && !allowed.includes(method.method)) return [];
    if (method.method !== "transfer") return [method];
    const banks = (method.banks ?? []).filter((bank: OfferedBank) =>
      bank.status !== "DISABLED" && inRange(bank, amount)
    );
    return banks.length === 0 ? [] : [{ ...method, banks }];
  });
}

/**
 * What the configured provider offers for `amount` in `currency`; when it cannot be asked, only
 * BLIK, which it always takes (a code is refused by the provider itself if it cannot).
 */
export async function methodsOffered(
  services: Services,
  currency: string,
  language: Language,
): Promise<OfferedMethod[] | null> {
  try {
    return await services.methods.offered(services.provider, currency, language);
  } catch (error) {
    services.log.warn("the provider's payment methods are unknown", errorFields(error));
    return null;
  }
}

function unavailable(message: string, param = "paymentMethods"): ApiError {
  return new ApiError("payment_method_unavailable", message, { param });
}

/**
 * Checks an allowlist given to an offer, payment or session against what the provider offers:
 * 400 `payment_method_unavailable` naming the first method it does not. When the provider cannot
 * be asked, any of the contract's methods is taken: a merchant's create does not fail on it.
 */
export async function requireOfferedMethods(
  services: Services,
  methods: readonly PaymentMethod[] | undefined,
  currency: string,
): Promise<void> {
  if (methods === undefined) return;
  const offered = await methodsOffered(services, currency, "en");
  if (offered === null) return;
  const names = new Set(availableMethods(offered, null).map((method) => method.method));
  const missing = methods.find((method) => !names.has(method));
  if (missing !== undefined) {
    throw unavailable(
      `'${missing}' is not offered by ${services.provider.status.displayName} now; it offers ${
        [...names].map((name) => `'${name}'`).join(", ") || "no method"
      }.`,
    );
  }
}

/** The allowlist stored on a row (a JSON array), or null for every method. */
export function allowlistOf(stored: string | null): PaymentMethod[] | null {
  if (stored === null) return null;
  const parsed = JSON.parse(stored) as string[];
  return PAYMENT_METHODS.filter((method) => parsed.includes(method));
}

/** The allowlist a row stores: the methods as given, or null for every method. */
export function storedAllowlist(methods: readonly PaymentMethod[] | undefined): string | null {
  return methods === undefined ? null : JSON.stringify(methods);
}

/**
 * Checks that the customer's choice may pay `payment` now: allowed by its allowlist and, for a
 * redirect method, offered by the provider for its amount and not temporarily disabled (a bank
 * under maintenance). 400 `payment_method_unavailable` with `param` naming what was chosen.
 */
export async function requireChoiceAvailable(
  services: Services,
  payment: { amount: number; currency: string; payment_methods: string | null },
  choice: MethodChoice,
): Promise<void> {
  const allowed = allowlistOf(payment.payment_methods);
  if (allowed !== null && !allowed.includes(choice.method)) {
    throw unavailable(`This payment cannot be paid with '${choice.method}'.`, "method");
  }
  // NOTE: a code goes straight to the provider, which refuses it itself if it cannot take one:
  // asking for its list first would put a second call on the path the customer waits on.
  if (choice.method === "blik") return;
  const offered = await methodsOffered(services, payment.currency, "pl");
  if (offered === null) {
    throw unavailable(`'${choice.method}' cannot be offered right now; pay with BLIK.`, "method");
  }
  const method = availableMethods(offered, payment.amount, allowed)
    .find((item) => item.method === choice.method);
  if (!method) throw unavailable(`'${choice.method}' is not offered for this payment.`, "method");
  if (method.status === "TEMPORARY_DISABLED") {
    throw unavailable(`'${choice.method}' is temporarily unavailable.`, "method");
  }
  if (choice.method !== "transfer") return;
  const bank = method.banks?.find((item) => item.bank === choice.bank);
  if (!bank) throw unavailable(`The bank '${choice.bank}' is not offered.`, "bank");
  if (bank.status === "TEMPORARY_DISABLED") {
    throw unavailable(`The bank '${choice.bank}' is temporarily unavailable.`, "bank");
  }
}

/**
 * What the provider offers now (`GET /api/v1/payment-methods`), for `amount` if given: from the
 * list kept at most 5 minutes. 503 when the provider cannot be asked and nothing is kept.
 */
export async function offeredMethods(
  services: Services,
  query: { amount?: number; currency: string },
): Promise<ApiOfferedMethod[]> {
  const offered = await methodsOffered(services, query.currency, "pl");
  if (offered === null) {
    throw new ApiError(
      "service_unavailable",
      `${services.provider.status.displayName} does not say which payment methods it offers ` +
        "right now; try again in a minute.",
      { headers: { "Retry-After": "60" } },
    );
  }
  return availableMethods(offered, query.amount ?? null).map((method) => ({
    method: method.method,
    flow: flowOf(method.method),
    status: method.status === "TEMPORARY_DISABLED" ? "TEMPORARY_DISABLED" : "ENABLED",
    ...(method.banks && {
      banks: method.banks.map((bank) => ({
        bank: bank.bank,
        name: bank.name,
        logoUrl: bank.logoUrl,
        status: bank.status === "TEMPORARY_DISABLED" ? "TEMPORARY_DISABLED" : "ENABLED",
      })),
    }),
  }));
}

/**
 * Where a method's redirect may send the customer's browser, for the page's form-action: any
 * https page (the provider's, then its bank's), and the provider's own origin when it is plain
 * http (a local fake). Nothing for the simulator, whose pages are Paystead's own.
 */
export function providerPageOrigins(services: Services): string[] {
  const account = services.provider.status.account;
  if (account === null) return [];
  const api = new URL(account.apiUrl);
  return api.protocol === "http:" ? ["https:", api.origin] : ["https:"];
}
