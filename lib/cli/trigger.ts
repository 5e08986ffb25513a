import { SANDBOX_RENEWAL_KEY } from "../providers/sandbox.ts";
import { ApiCallError, type ApiTarget, callApi } from "./api_client.ts";

type Made = Record<string, unknown>;

/** What `trigger` made: the ids to print, in the order they were made. */
type Printer = (line: string) => void;

async function offer(target: ApiTarget, fields: Made = {}): Promise<string> {
  const made = await callApi<{ qrId: string }>(target, "POST", "/api/v1/qr", {
    name: "Triggered by the Paystead CLI",
    amount: 1000,
    currency: "PLN",
    ...fields,
  });
  return made.qrId;
}

async function payment(target: ApiTarget, qrId: string, fields: Made = {}): Promise<string> {
  const made = await callApi<{ paymentId: string }>(target, "POST", "/api/v1/payments", {
    qrId,
    ...fields,
  });
  return made.paymentId;
}

function complete(target: ApiTarget, paymentId: string, code: string): Promise<Made> {
  return callApi(target, "POST", `/api/v1/payments/${paymentId}/complete`, { code });
}

function advanceClock(target: ApiTarget, days: number): Promise<Made> {
  return callApi(target, "POST", "/api/v1/sandbox/clock/advance", { days });
}

async function paid(target: ApiTarget, print: Printer, offerFields: Made = {}): Promise<string> {
  const qrId = await offer(target, offerFields);
  print(`offer    ${qrId}`);
  const paymentId = await payment(target, qrId);
  await complete(target, paymentId, "777123");
  print(`payment  ${paymentId} (paid with 777123)`);
  return paymentId;
}

async function refund(target: ApiTarget, print: Printer, amount: number): Promise<void> {
  const paymentId = await paid(target, print);
  const made = await callApi<{ refundId: string }>(
    target,
    "POST",
    `/api/v1/payments/${paymentId}/refunds`,
    { amount },
  );
  print(`refund   ${made.refundId} (${amount} minor units; the sandbox settles it at once)`);
}

/** The address a triggered subscription's renewal links go to (a reserved domain: nobody's). */
const TRIGGER_CUSTOMER = "customer@example.com";

interface TriggeredSubscription {
  subscriptionId: string;
  paymentId: string;
  renewalPaymentId: string | null;
}

async function subscriptionOf(target: ApiTarget, paymentId: string) {
  const list = await callApi<{ data: TriggeredSubscription[] }>(
    target,
    "GET",
    "/api/v1/subscriptions?limit=10",
  );
  return list.data.find((item) => item.paymentId === paymentId);
}

/** Waits (10 s at most) until the payment's subscription exists and `ready` holds for it. */
async function waitForSubscription(
  target: ApiTarget,
  paymentId: string,
  ready: (subscription: TriggeredSubscription) => boolean,
): Promise<TriggeredSubscription> {
  for (let wait = 0; wait < 100; wait++) {
    const subscription = await subscriptionOf(target, paymentId);
    if (subscription && ready(subscription)) return subscription;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The payment ${paymentId} started no subscription (or no renewal link).`);
}

/**
 * Starts a daily subscription, then renews it or lets it fall PAST_DUE. Where renewals go by pay
 * link (the first payment then needs the customer's e-mail), the link is paid, or left unpaid
 * past the period end; otherwise the sandbox clock moves a day and the simulator charges.
 */
async function renewal(target: ApiTarget, print: Printer, succeeds: boolean): Promise<void> {
  const qrId = await offer(target, {
    recurring: { interval: "DAY" },
    ...(!succeeds && { metadata: { [SANDBOX_RENEWAL_KEY]: "fail" } }),
  });
  print(`offer    ${qrId}`);
  let byLink = false;
  let paymentId;
  try {
    paymentId = await payment(target, qrId);
  } catch (error) {
    if (!(error instanceof ApiCallError && error.param === "customer.email")) throw error;
    byLink = true;
    paymentId = await payment(target, qrId, { customer: { email: TRIGGER_CUSTOMER } });
  }
  await complete(target, paymentId, "777123");
  print(`payment  ${paymentId} (paid with 777123)`);
  // A real provider (its sandbox) confirms in a moment: the subscription starts then.
  let subscription = await waitForSubscription(target, paymentId, () => true);
  print(`subscription ${subscription.subscriptionId}`);
  if (byLink && succeeds) {
    // A daily period is shorter than the notice: its renewal link is made as it starts.
    subscription = await waitForSubscription(target, paymentId, (s) => !!s.renewalPaymentId);
    const link = subscription.renewalPaymentId!;
    await complete(target, link, "777123");
    print(`renewal  ${link} (the renewal link, paid with 777123)`);
    return;
  }
  await advanceClock(target, 1);
  print(
    byLink
      ? "sandbox clock advanced 1 day: the renewal link is unpaid at the period end"
      : "sandbox clock advanced 1 day: the renewal is charged now",
  );
}

/** Every event `trigger` can make happen, and how, through the public API only. */
const SCENARIOS: Record<string, (target: ApiTarget, print: Printer) => Promise<void>> = {
  "payment.succeeded": async (target, print) => {
    await paid(target, print);
  },
  "payment.failed": async (target, print) => {
    const qrId = await offer(target);
    print(`offer    ${qrId}`);
    const paymentId = await payment(target, qrId);
    await complete(target, paymentId, "500500");
    print(`payment  ${paymentId} (declined with 500500)`);
  },
  "payment.canceled": async (target, print) => {
    const qrId = await offer(target);
    print(`offer    ${qrId}`);
    const paymentId = await payment(target, qrId);
    await callApi(target, "POST", `/api/v1/payments/${paymentId}/cancel`);
    print(`payment  ${paymentId} (canceled)`);
  },
  "payment.expired": async (target, print) => {
    const qrId = await offer(target);
    print(`offer    ${qrId}`);
    const paymentId = await payment(target, qrId, { expiresInMinutes: 1 });
    print(`payment  ${paymentId} (expires in 1 minute)`);
    await advanceClock(target, 1);
    print("sandbox clock advanced 1 day: the payment expires now");
  },
  "checkout.session.completed": async (target, print) => {
    const settings = await callApi<{ allowedOrigins: string[] }>(
      target,
      "GET",
      "/api/v1/checkout-settings",
    );
    let origin = settings.allowedOrigins[0];
    if (origin === undefined) {
      origin = "http://localhost:3000";
      await callApi(target, "PUT", "/api/v1/checkout-settings", { allowedOrigins: [origin] });
      print(`checkout allowlist: added ${origin} (it was empty)`);
    }
    const qrId = await offer(target);
    print(`offer    ${qrId}`);
    const session = await callApi<{ sessionId: string }>(
      target,
      "POST",
      `/api/v1/checkout-sessions/${qrId}`,
      { embedLink: `${origin}/checkout` },
    );
    const completed = await callApi<{ paymentId: string }>(
      target,
      "POST",
      `/api/v1/checkout-sessions/${session.sessionId}/complete`,
      { code: "777123" },
    );
    print(`session  ${session.sessionId} (completed with 777123)`);
    print(`payment  ${completed.paymentId}`);
  },
  "refund.succeeded": (target, print) => refund(target, print, 100),
  "refund.failed": (target, print) => refund(target, print, 199),
  "subscription.renewed": (target, print) => renewal(target, print, true),
  "subscription.past_due": (target, print) => renewal(target, print, false),
};

/** The event names `trigger` knows. */
export const TRIGGERABLE_EVENTS = Object.keys(SCENARIOS);

/**
 * Makes `event` happen in the sandbox through the real API, printing each id it made. Returns
 * false for a name it does not know (after listing the known ones).
 */
export async function trigger(target: ApiTarget, event: string, print: Printer): Promise<boolean> {
  const scenario = SCENARIOS[event];
  if (!scenario) {
    print(`Unknown event '${event}'. Known events:\n  ${TRIGGERABLE_EVENTS.join("\n  ")}`);
    return false;
  }
  await scenario(target, print);
  print(`Triggered ${event}.`);
  return true;
}
