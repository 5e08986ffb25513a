import { findOfferByPublicId } from "../../db/offers.ts";
import { getOrganisation } from "../accounts/organisations.ts";
import type { Services } from "../context.ts";
import { formatMoney } from "../money.ts";
import { createPayment, findPublicPayment, type PaymentRecord } from "../payments/mod.ts";
import { CreatePaymentRequest } from "../payments/schemas.ts";
import type { Payer } from "../payments/attempts.ts";
import { payCheckoutSession, payHostedPayment, rejectMalformedCode } from "./attempts.ts";
import { lockedForSeconds } from "./guard.ts";
import { type CheckoutSessionRecord, findPublicCheckoutSession, ownOrigin } from "./mod.ts";
import type { LineItem } from "./schemas.ts";
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

/** What both customer pages show around the order: the environment's marks and reloads. */
interface PageFrame {
  /** The sandbox banner. */
  sandbox: boolean;
  /** The test codes: the simulator's; PayU's sandbox has its own (README). */
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
}

/** A hosted payment's page: the payment, its order and its state. */
export interface PaymentPage extends PageFrame {
  payment: PaymentRecord;
  summary: OrderSummary;
  state: CheckoutState;
  /** Seconds until the payment expires, on the organisation's clock. */
  expiresInSeconds: number;
}

/**
 * The organisation's current time: the times of its sessions and payments are stored in it
 * (its sandbox clock may run ahead). Wrong-code locks run on real time instead.
 */
async function orgNow(services: Services, orgId: number): Promise<number> {
  return (await orgContextOnClock(services, orgId)).now();
}

function pageFrame(services: Services, state: CheckoutState): PageFrame {
  const sandbox = services.environment === "sandbox";
  return {
    sandbox,
    testCodes: sandbox && services.provider.name === "sandbox",
    refreshSeconds: state.phase === "processing" ? NO_SCRIPT_REFRESH_SECONDS : undefined,
  };
}

function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

async function merchantName(services: Services, orgId: number): Promise<string> {
  return (await getOrganisation(services.accounts, orgId))?.name ?? "the merchant";
}

function orderLines(lines: LineItem[], currency: string): OrderLine[] {
  return lines.map((line) => ({
    name: line.name,
    quantity: line.quantity,
    unitLabel: formatMoney(line.unitAmount, currency),
    totalLabel: formatMoney(line.unitAmount * line.quantity, currency),
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
): Promise<SessionPage | undefined> {
  const session = await findPublicCheckoutSession(services, sessionId);
  if (!session) return undefined;
  const now = await orgNow(services, session.org_id);
  const lines: LineItem[] = session.line_items === null
    ? [{ name: session.offer_name, quantity: 1, unitAmount: session.amount }]
    : JSON.parse(session.line_items);
  const state = sessionState(
    session,
    await lockedForSeconds(services.store.db, session.public_id, services.clock.now()),
    now,
  );
  return {
    ...pageFrame(services, state),
    session,
    summary: {
      merchantName: await merchantName(services, session.org_id),
      title: session.offer_name,
      description: session.offer_description,
      lines: orderLines(lines, session.currency),
      totalLabel: formatMoney(session.amount, session.currency),
    },
    state,
    expiresInSeconds: secondsUntil(session.expires_at, now),
    // The panel's preview embeds on this environment's own origin, which is never on a list.
    embedAllowed: session.embed_origin === ownOrigin(services) ||
      await isOriginAllowed(services.store.db, session.org_id, session.embed_origin),
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

/** Takes a code typed on a session's page; returns the page's state after the attempt. */
export async function attemptSessionCode(
  services: Services,
  session: CheckoutSessionRecord,
  rawCode: string,
  payer: Payer,
): Promise<CheckoutState> {
  const code = normaliseCode(rawCode);
  if (code === null) return await rejectMalformedCode(services, session.public_id);
  const ctx = await orgContextOnClock(services, session.org_id);
  const updated = await payCheckoutSession(ctx, session, code, { enforceLock: true, payer });
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

async function paymentSummary(services: Services, payment: PaymentRecord): Promise<OrderSummary> {
  const offer = (await findOfferByPublicId(services.store.db, payment.qr_id))!;
  return {
    merchantName: await merchantName(services, payment.org_id),
    title: offer.name,
    description: offer.description,
    lines: orderLines(
      [{
        name: offer.name,
        quantity: payment.quantity,
        unitAmount: payment.amount / payment.quantity,
      }],
      payment.currency,
    ),
    totalLabel: formatMoney(payment.amount, payment.currency),
  };
}

/** Loads the hosted page of a payment by its public id; undefined when there is none. */
export async function loadPaymentPage(
  services: Services,
  paymentId: string,
): Promise<PaymentPage | undefined> {
  const payment = await findPublicPayment(services, paymentId);
  if (!payment) return undefined;
  const now = await orgNow(services, payment.org_id);
  const state = hostedPaymentState(
    payment,
    await lockedForSeconds(services.store.db, payment.public_id, services.clock.now()),
    now,
  );
  return {
    ...pageFrame(services, state),
    payment,
    summary: await paymentSummary(services, payment),
    state,
    expiresInSeconds: secondsUntil(payment.expires_at, now),
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

/** Takes a code typed on a hosted payment's page; returns the page's state after the attempt. */
export async function attemptPaymentCode(
  services: Services,
  payment: PaymentRecord,
  rawCode: string,
  payer: Payer,
): Promise<CheckoutState> {
  const code = normaliseCode(rawCode);
  if (code === null) return await rejectMalformedCode(services, payment.public_id);
  const updated = await payHostedPayment(services, payment, code, payer);
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
  | { kind: "unavailable"; merchantName: string; offerName: string };

/**
 * Starts a payment for the offer behind a QR code (`/o/{qrId}`); a deactivated offer is
 * unavailable. Undefined when there is no such offer.
 */
export async function startOfferPayment(
  services: Services,
  qrId: string,
): Promise<OfferStart | undefined> {
  const offer = await findOfferByPublicId(services.store.db, qrId);
  if (!offer) return undefined;
  if (offer.active !== 1) {
    return {
      kind: "unavailable",
      merchantName: await merchantName(services, offer.org_id),
      offerName: offer.name,
    };
  }
  const payment = await createPayment(
    await orgContextOnClock(services, offer.org_id),
    CreatePaymentRequest.parse({ qrId }),
  );
  return { kind: "started", payment };
}
