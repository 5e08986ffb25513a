/**
 * What the fake POS offers: `GET /api/v2_1/paymethods` (OpenAPI `retrieve-payment-methods`), and
 * the check an order's `payMethods.payMethod.value` passes. The values and names are PayU's
 * (developers.payu.com, "Payment methods" and "Retrieve Payment Methods"); the statuses and amount
 * ranges are switches.
 */
import type { FakeContext, Reply } from "./context.ts";
import type { PayByLink, PayByLinkStatus } from "./wire.ts";
import type { Language } from "../shared/page.ts";

/** One method of the fake POS, before its switches apply. */
interface Catalogued {
  value: string;
  name: { pl: string; en: string };
  minAmount: number;
  maxAmount: number;
}

function brand(value: string, name: string): Catalogued {
  return { value, name: { pl: name, en: name }, minAmount: 50, maxAmount: 99_999_999 };
}

/** Amount ranges of cards, Google Pay and Apple Pay in PLN: 0,05 - 999999,99 ("c", "ap", "jp"). */
const CARD_RANGE = { minAmount: 5, maxAmount: 99_999_999 };

/** Eight Polish banks' pay-by-link values, then BLIK, card, Google Pay and Apple Pay. */
export const PAY_METHODS: readonly Catalogued[] = [
  brand("m", "mTransfer"),
  brand("p", "Płacę z iPKO"),
  brand("o", "Pekao24Przelew"),
  brand("g", "Płać z ING"),
  brand("ab", "Płacę z Alior Bankiem"),
  brand("wm", "Przelew z Millennium"),
  brand("i", "Płacę z Inteligo"),
  brand("sgb", "SGB Bank"),
  { value: "blik", name: { pl: "BLIK", en: "BLIK" }, minAmount: 1, maxAmount: 99_999_999 },
  {
    value: "c",
    name: { pl: "Płatność online kartą płatniczą", en: "Online payment by card" },
    ...CARD_RANGE,
  },
  { value: "ap", name: { pl: "Google Pay", en: "Google Pay" }, ...CARD_RANGE },
  { value: "jp", name: { pl: "Apple Pay", en: "Apple Pay" }, ...CARD_RANGE },
];

/** The methods as the fake offers them now, its switches applied. */
export function payByLinks(ctx: FakeContext, lang: Language): PayByLink[] {
  const overrides = ctx.switches().payMethods;
  return PAY_METHODS.map((method) => ({
    value: method.value,
    name: method.name[lang],
    brandImageUrl: `${ctx.baseUrl()}/images/mobile/logos/pbl_${method.value}.svg`,
    status: overrides[method.value]?.status ?? "ENABLED",
    minAmount: overrides[method.value]?.minAmount ?? method.minAmount,
    maxAmount: overrides[method.value]?.maxAmount ?? method.maxAmount,
  }));
}

/** Answers GET /api/v2_1/paymethods?lang=; the token arrays are empty (no saved tokens). */
export function listPayMethods(ctx: FakeContext, lang: string | undefined): Reply {
  return {
    status: 200,
    body: {
      blikTokens: [],
      cardTokens: [],
      pexTokens: [],
      payByLinks: payByLinks(ctx, lang === "en" ? "en" : "pl"),
      status: { statusCode: "SUCCESS" },
    },
  };
}

/** Why an order for `amount` cannot use `value` now; null when it can. */
export function unavailability(
  ctx: FakeContext,
  value: string,
  amount: number,
): "unknown" | PayByLinkStatus | "amount" | null {
  const method = payByLinks(ctx, "pl").find((candidate) => candidate.value === value);
  if (!method) return "unknown";
  if (method.status !== "ENABLED") return method.status;
  if (amount < method.minAmount || amount > method.maxAmount) return "amount";
  return null;
}

/** The method's name in `lang`; the value itself when unknown. */
export function payMethodName(value: string, lang: Language): string {
  return PAY_METHODS.find((method) => method.value === value)?.name[lang] ?? value;
}

/** The `paymentFlow` PayU shows in GET .../transactions for a method paid through its page. */
export function paymentFlowOf(value: string): string {
  switch (value) {
    case "c":
      return "CARD";
    case "ap":
      return "GOOGLE_PAY";
    case "jp":
      return "APPLE_PAY";
    case "blik":
      return "BLIK_PBL";
    default:
      return "PBL";
  }
}
