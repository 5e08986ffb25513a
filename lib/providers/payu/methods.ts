import type { MethodChoice, OfferedBank, OfferedMethod, RedirectMethod } from "../mod.ts";
import type { PayByLink } from "./wire.ts";

/** PayU's pay-by-link value of each method that is not a bank transfer. */
const METHOD_VALUES = { blik: "blik", card: "c", google_pay: "ap", apple_pay: "jp" } as const;

/**
 * Pay-by-link values that are not banks and not a method Paystead offers: installments,
 * deferred ("pay later") payments and wallets PayU lists beside the banks.
 */
const NEITHER = new Set([
  "ai",
  "dp",
  "dpt",
  "dpts",
  "dpp",
  "dpkl",
  "dpcz",
  "dpkd",
  "vc",
  "ma",
  "pp",
]);

/** The `payMethods.payMethod.value` of an order for a redirect method's choice. */
export function payByLinkValue(choice: Exclude<MethodChoice, { method: "blik" }>): string {
  return choice.method === "transfer" ? choice.bank : METHOD_VALUES[choice.method];
}

function bounds(link: PayByLink) {
  return {
    ...(link.minAmount !== undefined && { minAmount: link.minAmount }),
    ...(link.maxAmount !== undefined && { maxAmount: link.maxAmount }),
  };
}

/**
 * Paystead's methods from PayU's pay-by-links: `blik`, `c`, `ap` and `jp` are BLIK, card,
 * Google Pay and Apple Pay; any other value PayU lists, but installments, deferred payments and
 * wallets, is a bank of `transfer`. A transfer is offered while one bank is.
 */
export function methodsOf(links: PayByLink[]): OfferedMethod[] {
  const byValue = new Map(links.map((link) => [link.value, link]));
  const methods: OfferedMethod[] = [];
  const blik = byValue.get(METHOD_VALUES.blik);
  if (blik) methods.push({ method: "blik", status: blik.status, ...bounds(blik) });
  const banks: OfferedBank[] = links
    .filter((link) =>
      !NEITHER.has(link.value) && !Object.values(METHOD_VALUES).includes(link.value as never)
    )
    .map((link) => ({
      bank: link.value,
      name: link.name,
      logoUrl: link.brandImageUrl ?? null,
      status: link.status,
      ...bounds(link),
    }));
  if (banks.length > 0) {
    const status = banks.some((bank) => bank.status === "ENABLED")
      ? "ENABLED"
      : banks.some((bank) => bank.status === "TEMPORARY_DISABLED")
      ? "TEMPORARY_DISABLED"
      : "DISABLED";
    methods.push({ method: "transfer", status, banks });
  }
  for (const method of ["card", "google_pay", "apple_pay"] as const satisfies RedirectMethod[]) {
    const link = byValue.get(METHOD_VALUES[method]);
    if (link) methods.push({ method, status: link.status, ...bounds(link) });
  }
  return methods;
}
