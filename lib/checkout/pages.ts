import { needsRenewalAddress } from "../subscriptions/link_rules.ts";
import { findOfferByPublicId } from "../../db/offers.ts";
import { getOrganisation } from "../accounts/organisations.ts";
import type { Services } from "../context.ts";
import { getBusinessDetails } from "../business_details.ts";
import { chooseLanguage, type Language, type Translator, translator } from "../i18n/mod.ts";
import {
  type CustomerDetails,
  hasCustomerDetails,
  parseCustomerDetails,
  saveCustomerDetails,
} from "../payments/customer_details.ts";
import { createPayment } from "../payments/create.ts";
import { ApiError } from "../errors.ts";
import { findPublicPayment, type PaymentRecord } from "../payments/mod.ts";
import { CreatePaymentRequest } from "../payments/schemas.ts";
import type { Payer } from "../payments/attempts.ts";
import { allowlistOf, availableMethods, methodsOffered } from "../payments/methods.ts";
import type { MethodChoice, OfferedMethod, RedirectMethod } from "../providers/mod.ts";
import { payCheckoutSession, payHostedPayment, rejectMalformedCode } from "./attempts.ts";
import { assertCodeEntryOpen, lockedForSeconds } from "./guard.ts";
import { type CheckoutSessionRecord, findPublicCheckoutSession, ownOrigin } from "./mod.ts";
import type { LineItem } from "./schemas.ts";
import { type Seller, sellerOf } from "./seller.ts";
import { orgContextOnClock } from "../sandbox_clock.ts";
import { isOriginAllowed } from "./settings.ts";
import {
  type CheckoutState,
  hostedPaymentState,
  NO_SCRIPT_REFRESH_SECONDS,
  sessionState,
} from "./state.ts";

/** One line of the order as the customer reads it. */
interface OrderLine {
  name: string;
  quantity: number;
  unitLabel: string;
  totalLabel: string;
}

/** What the customer is paying for and to whom, formatted for a page. */
export interface OrderSummary {
  merchantName: string;
  title: string;
  description: string | null;
  lines: OrderLine[];
  totalLabel: string;
}

/** What the request says about the customer's language (CONTRACT "Customers in their language"). */
export interface LanguageRequest {
  /** `?lang=`, the customer's own switch. */
  query: string | null | undefined;
  acceptLanguage: string | null | undefined;
}

/** Who submitted a page: their address (through trusted proxies) and what says their language. */
export interface PagePayer {
  ip: string;
  request: LanguageRequest;
}

/** Who is paid and in which language the page speaks: what every customer page shows. */
export interface Audience {
  language: Language;
  merchantName: string;
  seller: Seller;
  /** Whether the organisation offers invoices ("I need an invoice"). */
  offersInvoices: boolean;
}

/**
 * The ways a page offers to pay: the BLIK code field, and the methods paid on the provider's
 * page (a transfer with its banks), each maybe temporarily unavailable.
 */
export interface PageMethods {
  code: boolean;
  redirect: OfferedMethod[];
}

/** What both customer pages show around the order: the environment's marks and reloads. */
interface PageFrame extends Audience {
  /** The sandbox banner. */
  sandbox: boolean;
  /** The test codes: the simulator's; a real provider's sandbox has its own (README). */
  testCodes: boolean;
  /** Without JavaScript, how often the page reloads itself while the bank decides. */
  refreshSeconds: number | undefined;
}

/** A checkout session's page: the session, its order and its state. */
export interface SessionPage extends PageFrame {
  session: CheckoutSessionRecord;
  summary: OrderSummary;
  state: CheckoutState;
  /** Seconds until the session expires, on the organisation's clock. */
  expiresInSeconds: number;
  /** False once the merchant removed the session's origin from the allowlist. */
  embedAllowed: boolean;
  /** Whether to ask for the customer's e-mail address (the payment has none). */
  askEmail: boolean;
  /** Whether that address is required (its subscription's renewal links are e-mailed). */
  emailRequired: boolean;
  methods: PageMethods;
}

/** A hosted payment's page: the payment, its order and its state. */
export interface PaymentPage extends PageFrame {
  payment: PaymentRecord;
  summary: OrderSummary;
  state: CheckoutState;
  /** Seconds until the payment expires, on the organisation's clock. */
  expiresInSeconds: number;
  /** Whether to ask for the customer's e-mail address (the payment has none). */
  askEmail: boolean;
  /** Whether that address is required (its subscription's renewal links are e-mailed). */
  emailRequired: boolean;
  methods: PageMethods;
}

/**
 * What a page offers for `amount` under `allowlist` (JSON, null for all), in the page's language.
 * A provider that cannot list its methods leaves the code alone, which it always takes.
 */
async function pageMethods(
  services: Services,
  payment: { amount: number; currency: string; allowlist: string | null },
  language: Language,
): Promise<PageMethods> {
  const allowed = allowlistOf(payment.allowlist);
  const offered = await methodsOffered(services, payment.currency, language);
  if (offered === null) return { code: allowed === null || allowed.includes("blik"), redirect: [] };
  const available = availableMethods(offered, payment.amount, allowed);
  return {
    code: available.some((method) => method.method === "blik"),
    redirect: available.filter((method) => method.method !== "blik"),
  };
}

/**
 * The organisation's current time: the times of its sessions and payments are stored in it
 * (its sandbox clock may run ahead). Wrong-code locks run on real time instead.
 */
async function orgNow(services: Services, orgId: number): Promise<number> {
  return (await orgContextOnClock(services, orgId)).now();
}

function pageFrame(services: Services, state: CheckoutState, audience: Audience): PageFrame {
  const sandbox = services.environment === "sandbox";
  return {
    ...audience,
    sandbox,
    testCodes: sandbox && services.provider.name === "sandbox",
    refreshSeconds: state.phase === "processing" ? NO_SCRIPT_REFRESH_SECONDS : undefined,
  };
}

function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Who an organisation's customer pays, and in which language: `?lang`, then the payment's or
 * session's `locale`, then the browser's, then the organisation's default (Polish unless set).
 */
export async function audienceOf(
  services: Services,
  orgId: number,
  locale: string | null,
  request: LanguageRequest,
): Promise<Audience> {
  const [organisation, details] = await Promise.all([
    getOrganisation(services.accounts, orgId),
    getBusinessDetails(services.accounts, orgId),
  ]);
  const language = chooseLanguage({
    query: request.query,
    locale,
    acceptLanguage: request.acceptLanguage,
    organisationDefault: details?.defaultLanguage,
  });
  const organisationName = organisation?.name ?? details?.legalName ?? "Paystead";
  return {
    language,
    merchantName: organisationName,
    seller: sellerOf(organisationName, details, language),
    offersInvoices: details?.invoiceRequests === true,
  };
}

/** The payer of a page's submission, in the language the page was shown in. */
async function payerOf(
  services: Services,
  orgId: number,
  locale: string | null,
  pagePayer: PagePayer,
): Promise<Payer> {
  const { language } = await audienceOf(services, orgId, locale, pagePayer.request);
  return { ip: pagePayer.ip, language };
}

/** Whether the organisation lets its customers ask for an invoice. */
async function offersInvoices(services: Services, orgId: number): Promise<boolean> {
  return (await getBusinessDetails(services.accounts, orgId))?.invoiceRequests === true;
}

function orderLines(lines: LineItem[], currency: string, money: Translator["money"]): OrderLine[] {
  return lines.map((line) => ({
    name: line.name,
    quantity: line.quantity,
    unitLabel: money(line.unitAmount, currency),
    totalLabel: money(line.unitAmount * line.quantity, currency),
  }));
}

/** Strips the spaces people type into codes ("777 123"); returns null unless six digits remain. */
function normaliseCode(raw: string): string | null {
  const code = raw.replace(/\s+/g, "");
  return /^\d{6}$/.test(code) ? code : null;
}

/** Loads the page of a session by its public id; undefined when there is none. */
export async function loadSessionPage(
  services: Services,
  sessionId: string,
  request: LanguageRequest,
): Promise<SessionPage | undefined> {
  const session = await findPublicCheckoutSession(services, sessionId);
  if (!session) return undefined;
  const now = await orgNow(services, session.org_id);
  const audience = await audienceOf(services, session.org_id, session.locale, request);
  const { money } = translator(audience.language);
  const lines: LineItem[] = session.line_items === null
    ? [{ name: session.offer_name, quantity: 1, unitAmount: session.amount }]
    : JSON.parse(session.line_items);
  const state = sessionState(
    session,
    await lockedForSeconds(services.store.db, session.public_id, services.clock.now()),
    now,
  );
  return {
    ...pageFrame(services, state, audience),
    session,
    summary: {
      merchantName: audience.merchantName,
      title: session.offer_name,
      description: session.offer_description,
      lines: orderLines(lines, session.currency, money),
      totalLabel: money(session.amount, session.currency),
    },
    state,
    expiresInSeconds: secondsUntil(session.expires_at, now),
    // The panel's preview embeds on this environment's own origin, which is never on a list.
    embedAllowed: session.embed_origin === ownOrigin(services) ||
      await isOriginAllowed(services.store.db, session.org_id, session.embed_origin),
    askEmail: session.payment_customer_email === null,
    emailRequired: session.payment_customer_email === null &&
      await needsRenewalAddress(services.store.db, services, session.offer_id),
    methods: await pageMethods(services, {
      amount: session.amount,
      currency: session.currency,
      allowlist: session.payment_methods ?? session.offer_payment_methods,
    }, audience.language),
  };
}

/** The current state of a session's page; undefined when there is no such session. */
export async function loadSessionState(
  services: Services,
  sessionId: string,
): Promise<CheckoutState | undefined> {
  const session = await findPublicCheckoutSession(services, sessionId);
  if (!session) return undefined;
  return sessionState(
    session,
    await lockedForSeconds(services.store.db, sessionId, services.clock.now()),
    await orgNow(services, session.org_id),
  );
}

/**
 * Takes a code typed on a session's page, with what the customer entered beside it (checked
 * first: 400 with `param` and nothing stored when wrong); returns the page's state after it.
 */
export async function attemptSessionCode(
  services: Services,
  session: CheckoutSessionRecord,
  rawCode: string,
  pagePayer: PagePayer,
  entered: CustomerDetails,
): Promise<CheckoutState> {
  const payer = await payerOf(services, session.org_id, session.locale, pagePayer);
  const details = parseCustomerDetails(entered, await offersInvoices(services, session.org_id));
  const code = normaliseCode(rawCode);
  if (code === null) return await rejectMalformedCode(services, session.public_id);
  const ctx = await orgContextOnClock(services, session.org_id);
  const { session: updated } = await payCheckoutSession(ctx, session, { method: "blik", code }, {
    enforceLock: true,
    payer,
    details,
  });
  const state = sessionState(
    updated,
    await lockedForSeconds(services.store.db, updated.public_id, services.clock.now()),
    ctx.now(),
  );
  return updated.payment_status === "PENDING" ? providerUnreachable(state) : state;
}

/**
 * The answer to a code whose attempt ended with the payment still PENDING: only a provider that
 * could not be reached does that. Nothing was charged, and a new code may be tried.
 */
function providerUnreachable(state: CheckoutState): CheckoutState {
  if (state.phase !== "ready") return state;
  return { ...state, phase: "failed", failureCode: "provider_unavailable", canRetry: true };
}

export async function paymentSummary(
  services: Services,
  payment: PaymentRecord,
  audience: Audience,
): Promise<OrderSummary> {
  const offer = (await findOfferByPublicId(services.store.db, payment.qr_id))!;
  const { money } = translator(audience.language);
  return {
    merchantName: audience.merchantName,
    title: offer.name,
    description: offer.description,
    lines: orderLines(
      [{
        name: offer.name,
        quantity: payment.quantity,
        unitAmount: payment.amount / payment.quantity,
      }],
      payment.currency,
      money,
    ),
    totalLabel: money(payment.amount, payment.currency),
  };
}

/** Loads the hosted page of a payment by its public id; undefined when there is none. */
export async function loadPaymentPage(
  services: Services,
  paymentId: string,
  request: LanguageRequest,
): Promise<PaymentPage | undefined> {
  const payment = await findPublicPayment(services, paymentId);
  if (!payment) return undefined;
  const now = await orgNow(services, payment.org_id);
  const audience = await audienceOf(services, payment.org_id, payment.locale, request);
  const state = hostedPaymentState(
    payment,
    await lockedForSeconds(services.store.db, payment.public_id, services.clock.now()),
    now,
  );
  return {
    ...pageFrame(services, state, audience),
    payment,
    summary: await paymentSummary(services, payment, audience),
    state,
    expiresInSeconds: secondsUntil(payment.expires_at, now),
    askEmail: payment.customer_email === null,
    emailRequired: payment.customer_email === null &&
      await needsRenewalAddress(services.store.db, services, payment.offer_id),
    // An invoice already asked for (the merchant's API call or an earlier try) is not asked again.
    offersInvoices: audience.offersInvoices && payment.invoice_tax_id === null,
    methods: await pageMethods(services, {
      amount: payment.amount,
      currency: payment.currency,
      allowlist: payment.payment_methods,
    }, audience.language),
  };
}

/** The current state of a hosted payment's page; undefined when there is no such payment. */
export async function loadPaymentState(
  services: Services,
  paymentId: string,
): Promise<CheckoutState | undefined> {
  const payment = await findPublicPayment(services, paymentId);
  if (!payment) return undefined;
  return hostedPaymentState(
    payment,
    await lockedForSeconds(services.store.db, paymentId, services.clock.now()),
    await orgNow(services, payment.org_id),
  );
}

/**
 * Takes a code typed on a hosted payment's page, with what the customer entered beside it
 * (checked first: 400 with `param` and nothing stored when wrong); returns the page's state.
 */
export async function attemptPaymentCode(
  services: Services,
  payment: PaymentRecord,
  rawCode: string,
  pagePayer: PagePayer,
  entered: CustomerDetails,
): Promise<CheckoutState> {
  const payer = await payerOf(services, payment.org_id, payment.locale, pagePayer);
  const details = parseCustomerDetails(entered, await offersInvoices(services, payment.org_id));
  const code = normaliseCode(rawCode);
  if (code === null) return await rejectMalformedCode(services, payment.public_id);
  if (hasCustomerDetails(details)) {
    // A refused attempt (429 while locked) stores nothing either.
    await assertCodeEntryOpen(services.store.db, payment.public_id, services.clock.now());
    const now = await orgNow(services, payment.org_id);
    // A payment no longer payable is left as it is; the attempt below then says why.
    await services.store.write((trx) => saveCustomerDetails(trx, payment.id, details, now));
  }
  const { payment: updated } = await payHostedPayment(
    services,
    payment,
    { method: "blik", code },
    payer,
  );
  const state = hostedPaymentState(
    updated,
    await lockedForSeconds(services.store.db, updated.public_id, services.clock.now()),
    await orgNow(services, updated.org_id),
  );
  return updated.status === "PENDING" ? providerUnreachable(state) : state;
}

/** What opening an offer's QR code leads to. */
type OfferStart =
  | { kind: "started"; payment: PaymentRecord }
  | { kind: "unavailable"; language: Language; merchantName: string; offerName: string };

/**
 * Starts a payment for the offer behind a QR code (`/o/{qrId}`); a deactivated offer is
 * unavailable. Undefined when there is no such offer.
 */
export async function startOfferPayment(
  services: Services,
  qrId: string,
  request: LanguageRequest,
): Promise<OfferStart | undefined> {
  const offer = await findOfferByPublicId(services.store.db, qrId);
  if (!offer) return undefined;
  if (offer.active !== 1) {
    const audience = await audienceOf(services, offer.org_id, null, request);
    return {
      kind: "unavailable",
      language: audience.language,
      merchantName: audience.merchantName,
      offerName: offer.name,
    };
  }
  const { payment } = await createPayment(
    await orgContextOnClock(services, offer.org_id),
    CreatePaymentRequest.parse({ qrId }),
    { askedOnPage: true },
  );
  return { kind: "started", payment };
}

/** A redirect method as a page's form sends it: `method`, and `bank` for a transfer. */
export interface RedirectChoiceInput {
  method: string | undefined;
  bank: string | undefined;
}

/** The choice a page's form made; a bank alone is a transfer from it. 400 when it is none. */
export function redirectChoiceOf(
  input: RedirectChoiceInput,
): Exclude<MethodChoice, { method: "blik" }> {
  const bank = input.bank?.trim();
  const method = input.method?.trim() || (bank ? "transfer" : "");
  if (method === "transfer") {
    if (!bank || bank.length > 40) {
      throw new ApiError("parameter_missing", "Choose the bank to pay from.", { param: "bank" });
    }
    return { method, bank };
  }
  if ((["card", "google_pay", "apple_pay"] satisfies RedirectMethod[]).includes(method as never)) {
    return { method: method as "card" | "google_pay" | "apple_pay" };
  }
  throw new ApiError("parameter_invalid", "Choose a way to pay.", { param: "method" });
}

/**
 * Takes a redirect method chosen on a hosted payment's page, with what the customer entered
 * beside it (checked first: 400 with `param` and nothing stored when wrong): where to send the
 * customer, or null when the attempt ended at once (the provider refused it or could not be
 * reached), which the payment's page then shows.
 */
export async function choosePaymentMethod(
  services: Services,
  payment: PaymentRecord,
  input: RedirectChoiceInput,
  pagePayer: PagePayer,
  entered: CustomerDetails,
): Promise<string | null> {
  const choice = redirectChoiceOf(input);
  const details = parseCustomerDetails(entered, await offersInvoices(services, payment.org_id));
  const payer = await payerOf(services, payment.org_id, payment.locale, pagePayer);
  if (hasCustomerDetails(details)) {
    const now = await orgNow(services, payment.org_id);
    await services.store.write((trx) => saveCustomerDetails(trx, payment.id, details, now));
  }
  return (await payHostedPayment(services, payment, choice, payer)).redirectUrl;
}

/**
 * Takes a redirect method chosen in a session's iframe, as `choosePaymentMethod` does: where to
 * send the customer's top window, or null when the attempt ended at once.
 */
export async function chooseSessionMethod(
  services: Services,
  session: CheckoutSessionRecord,
  input: RedirectChoiceInput,
  pagePayer: PagePayer,
  entered: CustomerDetails,
): Promise<{ redirectUrl: string | null; paymentId: string | null }> {
  const choice = redirectChoiceOf(input);
  const details = parseCustomerDetails(entered, await offersInvoices(services, session.org_id));
  const payer = await payerOf(services, session.org_id, session.locale, pagePayer);
  const ctx = await orgContextOnClock(services, session.org_id);
  const attempt = await payCheckoutSession(ctx, session, choice, {
    enforceLock: false,
    payer,
    details,
  });
  return { redirectUrl: attempt.redirectUrl, paymentId: attempt.session.payment_public_id };
}
