/**
 * The fake's transaction panel at `/trnRequest/{token}` ("Redirection to transaction panel"),
 * standing in for P24's page and the bank: the transaction, the method (a choice when the shop
 * sent none) and three buttons, in Polish or English, a plain form that works without JavaScript.
 */
import { actAtBank, type BankAction } from "./bank.ts";
import type { P24Context } from "./context.ts";
import { methodName, methodsFor } from "./methods.ts";
import type { FakeTransaction } from "./state.ts";
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
    title: "Przelewy24: płatność (strona testowa)",
    heading: "Płatność za zamówienie",
    description: "Opis",
    amount: "Kwota",
    method: "Metoda płatności",
    choose: "Wybierz metodę płatności",
    chooseFirst: "Wybierz metodę płatności, żeby zapłacić.",
    pay: "Zapłać",
    decline: "Odrzuć płatność",
    leave: "Wróć do sklepu bez płacenia",
    note: "To testowa strona udająca Przelewy24 i bank: nie pobiera żadnych pieniędzy.",
    paid: "Ta transakcja jest opłacona.",
    declined: "Ta płatność została odrzucona.",
    back: "Wróć do sklepu",
    missing: "Nie ma takiej transakcji.",
    other: "English",
  },
  en: {
    title: "Przelewy24: payment (test page)",
    heading: "Pay for your order",
    description: "Description",
    amount: "Amount",
    method: "Payment method",
    choose: "Choose a payment method",
    chooseFirst: "Choose a payment method to pay.",
    pay: "Pay",
    decline: "Decline the payment",
    leave: "Back to the shop without paying",
    note: "A test page standing in for Przelewy24 and the bank: it takes no money.",
    paid: "This transaction is paid.",
    declined: "This payment was declined.",
    back: "Back to the shop",
    missing: "There is no such transaction.",
    other: "Polski",
  },
} as const;

/** The language asked for: `?lang=` or the form's, and the browser's. */
export interface PageRequest {
  lang: string | undefined;
  acceptLanguage: string | undefined;
}

/** Answers GET /trnRequest/{token}. */
export function showTransactionPage(
  ctx: P24Context,
  token: string,
  request: PageRequest,
): Response {
  const t = ctx.state.transactions.get(token);
  const lang = languageOf(t, request);
  if (!t) return htmlResponse(htmlPage(lang, TEXT[lang].title, missing(lang)), 404);
  return htmlResponse(render(ctx, t, lang, false));
}

/** Answers POST /trnRequest/{token} with the form's `action` (and `method` when choosing). */
export async function submitTransactionPage(
  ctx: P24Context,
  token: string,
  request: PageRequest,
  form: URLSearchParams,
): Promise<Response> {
  const t = ctx.state.transactions.get(token);
  const lang = languageOf(t, request);
  if (!t) return htmlResponse(htmlPage(lang, TEXT[lang].title, missing(lang)), 404);
  const action = form.get("action");
  if (action !== "pay" && action !== "decline" && action !== "leave") {
    return htmlResponse(render(ctx, t, lang, false), 400);
  }
  const method = form.get("method");
  const result = await actAtBank(
    ctx,
    t,
    action as BankAction,
    method !== null && /^\d{1,9}$/.test(method) ? Number(method) : undefined,
  );
  if (result.kind === "method") return htmlResponse(render(ctx, t, lang, true), 400);
  if (result.kind === "decided") return htmlResponse(render(ctx, t, lang, false), 409);
  return seeOther(result.location);
}

function languageOf(t: FakeTransaction | undefined, request: PageRequest): Language {
  return pickLanguage(request.lang, t?.request.language, request.acceptLanguage);
}

function render(ctx: P24Context, t: FakeTransaction, lang: Language, methodError: boolean): string {
  const text = TEXT[lang];
  const other: Language = lang === "pl" ? "en" : "pl";
  const self = `/trnRequest/${encodeURIComponent(t.token)}`;
  const fixed = t.methodId ?? t.request.method ?? null;
  const summary = `<dl>
<dt>${text.description}</dt><dd>${escapeHtml(t.request.description)}</dd>
<dt>${text.amount}</dt><dd>${
    escapeHtml(formatAmount(t.request.amount, t.request.currency, lang))
  }</dd>
${fixed === null ? "" : `<dt>${text.method}</dt><dd>${escapeHtml(methodName(fixed, lang))}</dd>`}
</dl>`;
  const switcher = `<p><a href="${
    escapeHtml(`${self}?lang=${other}`)
  }" hreflang="${other}" lang="${other}">${text.other}</a></p>`;
  const body = t.paidAt === null && t.bankOutcome === null
    ? form(ctx, t, lang, self, fixed === null, methodError)
    : `<p role="status">${t.paidAt === null ? text.declined : text.paid}</p>
<p><a href="${escapeHtml(t.request.urlReturn)}">${text.back}</a></p>`;
  return htmlPage(
    lang,
    text.title,
    `<h1>${text.heading}</h1>\n${summary}\n${body}\n<p class="note">${text.note}</p>\n${switcher}`,
  );
}

function form(
  ctx: P24Context,
  t: FakeTransaction,
  lang: Language,
  self: string,
  choose: boolean,
  methodError: boolean,
): string {
  const text = TEXT[lang];
  const choice = choose ? methodChoice(ctx, t, lang, methodError) : "";
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
  ctx: P24Context,
  t: FakeTransaction,
  lang: Language,
  methodError: boolean,
): string {
  const text = TEXT[lang];
  const options = methodsFor(ctx, lang, t.request).map((method) => {
    const id = `method-${method.id}`;
    return `<label for="${id}"><input type="radio" id="${id}" name="method" value="${method.id}"${
      method.status ? "" : " disabled"
    }> <img src="${escapeHtml(method.imgUrl)}" alt=""> ${escapeHtml(method.name)}</label>`;
  }).join("\n");
  const error = methodError ? `<p id="method-error" role="alert">${text.chooseFirst}</p>` : "";
  return `<fieldset${methodError ? ' aria-describedby="method-error"' : ""}>
<legend>${text.choose}</legend>
${error}
${options}
</fieldset>`;
}

function missing(lang: Language): string {
  return `<h1>${TEXT[lang].title}</h1>\n<p>${TEXT[lang].missing}</p>`;
}
