/**
 * The fake's page at an order's redirectUri, standing in for the bank, the card form, Google Pay,
 * Apple Pay or PayU's pay wall: the order, the method (a choice on the pay wall) and three
 * buttons, in Polish or English, a plain form that works without JavaScript.
 */
import { actAtBank, type BankAction } from "./bank.ts";
import type { FakeContext } from "./context.ts";
import { undecided } from "./order_status.ts";
import { payByLinks, payMethodName } from "./paymethods.ts";
import type { FakeOrder } from "./state.ts";
import {
  escapeHtml,
  formatAmount,
  htmlPage,
  htmlResponse,
  type Language,
  pickLanguage,
  seeOther,
} from "../shared/page.ts";

const TEXT = {
  pl: {
    title: "PayU: płatność (strona testowa)",
    heading: "Płatność za zamówienie",
    shop: "Punkt płatności",
    description: "Opis",
    amount: "Kwota",
    method: "Metoda płatności",
    choose: "Wybierz metodę płatności",
    unavailable: "chwilowo niedostępna",
    chooseFirst: "Wybierz metodę płatności, żeby zapłacić.",
    pay: "Zapłać",
    decline: "Odrzuć płatność",
    leave: "Wróć do sklepu bez płacenia",
    note: "To testowa strona udająca PayU i bank: nie pobiera żadnych pieniędzy.",
    paid: "To zamówienie jest opłacone.",
    canceled: "To zamówienie jest anulowane.",
    back: "Wróć do sklepu",
    close: "Możesz zamknąć tę stronę.",
    missing: "Nie ma takiego zamówienia.",
    other: "English",
  },
  en: {
    title: "PayU: payment (test page)",
    heading: "Pay for your order",
    shop: "Point of sale",
    description: "Description",
    amount: "Amount",
    method: "Payment method",
    choose: "Choose a payment method",
    unavailable: "temporarily unavailable",
    chooseFirst: "Choose a payment method to pay.",
    pay: "Pay",
    decline: "Decline the payment",
    leave: "Back to the shop without paying",
    note: "A test page standing in for PayU and the bank: it takes no money.",
    paid: "This order is paid.",
    canceled: "This order is cancelled.",
    back: "Back to the shop",
    close: "You may close this page.",
    missing: "There is no such order.",
    other: "Polski",
  },
} as const;

/** The page's request: the order and its token from the query, the language asked for. */
export interface PageRequest {
  orderId: string | undefined;
  token: string | undefined;
  lang: string | undefined;
  acceptLanguage: string | undefined;
}

/** Answers GET /pay/?orderId=&token=. */
export function showPayPage(ctx: FakeContext, request: PageRequest): Response {
  const order = orderOf(ctx, request);
  const lang = languageOf(order, request);
  if (!order) return htmlResponse(htmlPage(lang, TEXT[lang].title, missing(lang)), 404);
  return htmlResponse(render(ctx, order, lang, false));
}

/** Answers POST /pay/?orderId=&token= with the form's `action` (and `method` on the pay wall). */
export function submitPayPage(
  ctx: FakeContext,
  request: PageRequest,
  form: URLSearchParams,
): Response {
  const order = orderOf(ctx, request);
  const lang = languageOf(order, request);
  if (!order) return htmlResponse(htmlPage(lang, TEXT[lang].title, missing(lang)), 404);
  const action = form.get("action");
  if (action !== "pay" && action !== "decline" && action !== "leave") {
    return htmlResponse(render(ctx, order, lang, false), 400);
  }
  const result = actAtBank(ctx, order, action as BankAction, form.get("method") ?? undefined);
  if (result.kind === "method") return htmlResponse(render(ctx, order, lang, true), 400);
  if (result.kind === "decided") return htmlResponse(render(ctx, order, lang, false), 409);
  if (result.location !== null) return seeOther(result.location);
  return htmlResponse(render(ctx, order, lang, false));
}

function orderOf(ctx: FakeContext, request: PageRequest): FakeOrder | undefined {
  const order = request.orderId === undefined ? undefined : ctx.state.orders.get(request.orderId);
  if (!order || order.flow === "blik" || order.pageToken !== request.token) return undefined;
  return order;
}

function languageOf(order: FakeOrder | undefined, request: PageRequest): Language {
  return pickLanguage(request.lang, order?.buyer?.language, request.acceptLanguage);
}

function render(ctx: FakeContext, order: FakeOrder, lang: Language, methodError: boolean): string {
  const text = TEXT[lang];
  const other: Language = lang === "pl" ? "en" : "pl";
  const self = `/pay/?orderId=${encodeURIComponent(order.orderId)}&token=${
    encodeURIComponent(order.pageToken)
  }`;
  const summary = `<dl>
<dt>${text.shop}</dt><dd>${escapeHtml(order.merchantPosId)}</dd>
<dt>${text.description}</dt><dd>${escapeHtml(order.description)}</dd>
<dt>${text.amount}</dt><dd>${
    escapeHtml(formatAmount(BigInt(order.totalAmount), order.currencyCode, lang))
  }</dd>
${
    order.payMethodValue === null
      ? ""
      : `<dt>${text.method}</dt><dd>${escapeHtml(payMethodName(order.payMethodValue, lang))}</dd>`
  }
</dl>`;
  const switcher = `<p><a href="${
    escapeHtml(`${self}&lang=${other}`)
  }" hreflang="${other}" lang="${other}">${text.other}</a></p>`;
  const body = undecided(order) ? form(ctx, order, lang, self, methodError) : decided(order, lang);
  return htmlPage(
    lang,
    text.title,
    `<h1>${text.heading}</h1>\n${summary}\n${body}\n<p class="note">${text.note}</p>\n${switcher}`,
  );
}

function form(
  ctx: FakeContext,
  order: FakeOrder,
  lang: Language,
  self: string,
  methodError: boolean,
): string {
  const text = TEXT[lang];
  const choice = order.flow === "paywall" ? methodChoice(ctx, order, lang, methodError) : "";
  return `<form method="post" action="${escapeHtml(self)}">
<input type="hidden" name="lang" value="${lang}">
${choice}
<div class="actions">
<button type="submit" name="action" value="pay">${text.pay}</button>
<button type="submit" name="action" value="decline">${text.decline}</button>
<button type="submit" name="action" value="leave">${text.leave}</button>
</div>
</form>`;
}

function methodChoice(
  ctx: FakeContext,
  order: FakeOrder,
  lang: Language,
  methodError: boolean,
): string {
  const text = TEXT[lang];
  const amount = Number(order.totalAmount);
  const offered = payByLinks(ctx, lang).filter((method) =>
    method.status !== "DISABLED" && amount >= method.minAmount && amount <= method.maxAmount
  );
  const options = offered.map((method) => {
    const off = method.status === "TEMPORARY_DISABLED";
    const id = `method-${method.value}`;
    return `<label for="${id}"><input type="radio" id="${id}" name="method" value="${
      escapeHtml(method.value)
    }"${off ? " disabled" : ""}> <img src="${escapeHtml(method.brandImageUrl)}" alt=""> ${
      escapeHtml(method.name)
    }${off ? ` (${text.unavailable})` : ""}</label>`;
  }).join("\n");
  const error = methodError ? `<p id="method-error" role="alert">${text.chooseFirst}</p>` : "";
  return `<fieldset${methodError ? ' aria-describedby="method-error"' : ""}>
<legend>${text.choose}</legend>
${error}
${options}
</fieldset>`;
}

function decided(order: FakeOrder, lang: Language): string {
  const text = TEXT[lang];
  const state = order.status === "COMPLETED" ? text.paid : text.canceled;
  const back = order.continueUrl === undefined
    ? `<p>${text.close}</p>`
    : `<p><a href="${escapeHtml(order.continueUrl)}">${text.back}</a></p>`;
  return `<p role="status">${state}</p>\n${back}`;
}

function missing(lang: Language): string {
  return `<h1>${TEXT[lang].title}</h1>\n<p>${TEXT[lang].missing}</p>`;
}
