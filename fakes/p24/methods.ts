/**
 * The payment methods of the fake account: `GET /api/v1/payment/methods/{lang}?amount=&currency=`
 * (`PaymentMethodsResponseMethod`: name, id, group, subgroup, status, imgUrl, mobileImgUrl,
 * mobile, availabilityHours), and which of them a transaction may use.
 */
import type { P24Context, Reply } from "./context.ts";
import { CHANNELS } from "./wire.ts";
import type { Language } from "../shared/page.ts";

/** A method as the fake offers it before its switches apply. */
interface Catalogued {
  id: number;
  name: { pl: string; en: string };
  /** `group`: "FastTransfers, Blik, eTransfer, Credit Card, Installments, Wallet, ..." */
  group: string;
  subgroup: string;
  currencies: readonly string[];
  minAmount: number;
  maxAmount: number;
  /** The `channel` bits that allow it. */
  channels: number;
}

const PLN = ["PLN"] as const;
const CARD_CURRENCIES = ["PLN", "EUR", "GBP", "USD", "CZK"] as const;
const BANK_CHANNELS = CHANNELS.transfer | CHANNELS.all | CHANNELS.payByLink |
  CHANNELS.allButBlik;
const CARD_CHANNELS = CHANNELS.cardAndWallets | CHANNELS.card | CHANNELS.all |
  CHANNELS.allButBlik;
const WALLET_CHANNELS = CHANNELS.cardAndWallets | CHANNELS.wallets | CHANNELS.all |
  CHANNELS.allButBlik;

function bank(id: number, name: string): Catalogued {
  return {
    id,
    name: { pl: name, en: name },
    group: "FastTransfers",
    subgroup: "FastTransfers",
    currencies: PLN,
    minAmount: 1,
    maxAmount: 5_500_000,
    channels: BANK_CHANNELS,
  };
}

/** BLIK's method id in P24's lists. */
export const BLIK_METHOD_ID = 154;

/** Seven Polish banks' pay-by-link, BLIK, card, Google Pay and Apple Pay. */
export const METHODS: readonly Catalogued[] = [
  bank(25, "mTransfer - mBank"),
  bank(112, "Płacę z iPKO"),
  bank(20, "Płać z ING"),
  bank(65, "Bank Pekao S.A."),
  bank(31, "Santander - Przelew24"),
  bank(87, "Płacę z Alior Bankiem"),
  bank(117, "Millennium - Płatności Internetowe"),
  {
    id: BLIK_METHOD_ID,
    name: { pl: "BLIK", en: "BLIK" },
    group: "Blik",
    subgroup: "Blik",
    currencies: PLN,
    minAmount: 1,
    maxAmount: 5_500_000,
    channels: CHANNELS.blik | CHANNELS.all,
  },
  {
    id: 218,
    name: { pl: "Karta płatnicza", en: "Payment card" },
    group: "Credit Card",
    subgroup: "Credit Card",
    currencies: CARD_CURRENCIES,
    minAmount: 1,
    maxAmount: 5_500_000,
    channels: CARD_CHANNELS,
  },
  {
    id: 229,
    name: { pl: "Google Pay", en: "Google Pay" },
    group: "Wallet",
    subgroup: "Wallet",
    currencies: CARD_CURRENCIES,
    minAmount: 1,
    maxAmount: 5_500_000,
    channels: WALLET_CHANNELS,
  },
  {
    id: 252,
    name: { pl: "Apple Pay", en: "Apple Pay" },
    group: "Wallet",
    subgroup: "Wallet",
    currencies: CARD_CURRENCIES,
    minAmount: 1,
    maxAmount: 5_500_000,
    channels: WALLET_CHANNELS,
  },
];

/** A method with its switches applied. */
export interface OfferedMethod {
  id: number;
  name: string;
  group: string;
  subgroup: string;
  /** Switched on, and the amount (when given) within its range. */
  status: boolean;
  imgUrl: string;
  mobileImgUrl: string;
  mobile: boolean;
  availabilityHours: { mondayToFriday: string; saturday: string; sunday: string };
}

/** The methods for a currency, and whether each takes `amount` now. */
export function offeredMethods(
  ctx: P24Context,
  lang: Language,
  currency: string,
  amount: number | null,
): OfferedMethod[] {
  const overrides = ctx.switches().methods;
  return METHODS.filter((method) => method.currencies.includes(currency)).map((method) => {
    const override = overrides[String(method.id)] ?? {};
    const min = override.minAmount ?? method.minAmount;
    const max = override.maxAmount ?? method.maxAmount;
    const inRange = amount === null || (amount >= min && amount <= max);
    return {
      id: method.id,
      name: method.name[lang],
      group: method.group,
      subgroup: method.subgroup,
      status: (override.status ?? true) && inRange,
      imgUrl: `${ctx.baseUrl()}/storage/methods/${method.id}.svg`,
      mobileImgUrl: `${ctx.baseUrl()}/storage/methods/${method.id}.svg`,
      mobile: true,
      availabilityHours: { mondayToFriday: "00-24", saturday: "00-24", sunday: "00-24" },
    };
  });
}

/** Answers GET /api/v1/payment/methods/{lang}; 404 `BasicResponse` when none is offered. */
export function listMethods(
  ctx: P24Context,
  lang: string,
  query: { amount?: string; currency?: string },
): Reply | "invalid" {
  if (lang !== "pl" && lang !== "en") return "invalid";
  if (query.amount !== undefined && !/^\d{1,10}$/.test(query.amount)) return "invalid";
  const currency = query.currency ?? "PLN";
  if (!/^[A-Z]{3}$/.test(currency)) return "invalid";
  const methods = offeredMethods(
    ctx,
    lang,
    currency,
    query.amount === undefined ? null : Number(query.amount),
  );
  if (methods.length === 0) {
    return { status: 404, body: { data: ["Payment methods not found"], responseCode: 404 } };
  }
  return { status: 200, body: { data: methods, agreements: [], responseCode: 0 } };
}

/** The methods a registered transaction may be paid with: its channel, currency and amount. */
export function methodsFor(
  ctx: P24Context,
  lang: Language,
  t: { currency: string; amount: number; channel?: number },
): OfferedMethod[] {
  const channels = new Map(METHODS.map((method) => [method.id, method.channels]));
  return offeredMethods(ctx, lang, t.currency, t.amount).filter((method) =>
    t.channel === undefined || (channels.get(method.id)! & t.channel) !== 0
  );
}

/** The method's name; its id when unknown. */
export function methodName(id: number, lang: Language): string {
  return METHODS.find((method) => method.id === id)?.name[lang] ?? String(id);
}
