import type { Kysely } from "kysely";
import { findOffer } from "../../db/offers.ts";
import {
  type AttemptRecord,
  countAttempts,
  findAttemptByPublicId,
  findOpenAttempt,
  insertAttempt,
  type PaymentAttemptRow,
  updateOpenAttempt,
} from "../../db/payment_attempts.ts";
import { findPayment, type PaymentRecord, setCustomerLanguage } from "../../db/payments.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { afterCommit } from "../after_commit.ts";
import type { OrgContext, Services } from "../context.ts";
import { withDeadline } from "../deadline.ts";
import { ApiError } from "../errors.ts";
import { isLanguage, type Language } from "../i18n/languages.ts";
import { newId } from "../ids.ts";
import { PAYMENT_ATTEMPTS_JOB, PAYMENT_DEADLINES_JOB } from "../jobs.ts";
import { errorFields } from "../log.ts";
import {
  type AuthorizationAnswer,
  bankOf,
  flowOf,
  type MethodChoice,
  type PaymentMethod,
  ProviderUnavailableError,
} from "../providers/mod.ts";
import { assertSubscriptionPayable } from "../subscriptions/link_rules.ts";
import { assertPayable, paymentUrl } from "./mod.ts";
import { applyAttemptOutcome, POLL_INTERVAL_MS } from "./outcome.ts";
import { requireChoiceAvailable } from "./methods.ts";

/** Who chose: the customer's address (through trusted proxies) and the language of their page. */
export interface Payer {
  ip: string;
  /** The language of the page the customer chose on; null for the sandbox's API operations. */
  language: Language | null;
}

/** The most attempts one payment takes: each is an order at the provider. */
export const MAX_ATTEMPTS_PER_PAYMENT = 20;
/** How long a call to give up an attempt at its provider may take. */
const GIVE_UP_TIMEOUT_MS = 10_000;

/** What starting an attempt led to: the payment after it, and the page a redirect method opens. */
export interface AttemptStart {
  payment: PaymentRecord;
  /** Where to send the customer (a redirect method); null for a code, decided or pending. */
  redirectUrl: string | null;
}

/** Where the customer comes back from a provider's page: the payment's return page. */
export function returnUrl(publicUrl: string, paymentId: string): string {
  return `${paymentUrl(publicUrl, paymentId)}/return`;
}

/**
 * Opens an attempt for a pending payment in `trx` (system time `now`), before the provider hears
 * of it. Throws 409 while another attempt of the payment is with the provider, or when the
 * payment can no longer be paid, and 429 past `MAX_ATTEMPTS_PER_PAYMENT`; a subscription's rules
 * apply too (links.ts). A redirect method's order may wait for the customer until the payment
 * expires; a code's, the provider's order validity.
 */
export async function openAttempt(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  payment: PaymentRecord,
  choice: MethodChoice,
  payer: Payer,
  times: { orgNow: number; now: number },
): Promise<PaymentAttemptRow> {
  const { orgNow, now } = times;
  const current = (await findPayment(trx, payment.org_id, payment.public_id))!;
  assertPayable(current, orgNow);
  await assertSubscriptionPayable(trx, services, current);
  // NOTE: with the unique index on open attempts, this makes a second attempt on the same payment
  // a 409 while the first is with the provider, so one payment is never charged twice by codes.
  if (await findOpenAttempt(trx, current.id)) {
    throw new ApiError(
      "payment_processing",
      `The payment '${payment.public_id}' is waiting for the customer's confirmation; wait for its result.`,
    );
  }
  if (await countAttempts(trx, current.id) >= MAX_ATTEMPTS_PER_PAYMENT) {
    throw new ApiError(
      "rate_limited",
      `The payment '${payment.public_id}' has had ${MAX_ATTEMPTS_PER_PAYMENT} attempts; start a new payment.`,
    );
  }
  // The customer's e-mails speak the language of the page they paid on (unless the merchant chose).
  if (payer.language !== null && current.locale === null) {
    await setCustomerLanguage(trx, current.id, payer.language);
  }
  const redirect = flowOf(choice.method) === "redirect";
  const deadline = redirect
    ? now + (current.expires_at - orgNow)
    : now + services.provider.orderValidityMs;
  return await insertAttempt(trx, {
    public_id: newId("paymentAttempt"),
    org_id: current.org_id,
    payment_id: current.id,
    provider: services.provider.name,
    provider_ref: null,
    status: "OPEN",
    failure_code: null,
    deadline_at: deadline,
    // Asked about after a minute unless an answer comes first: the answer's write wakes the job,
    // and the minute's sweep (or the next start) finds an attempt a crash left behind.
    check_at: redirect ? Math.min(now + POLL_INTERVAL_MS, deadline) : now + POLL_INTERVAL_MS,
    created_at: now,
    updated_at: now,
    finished_at: null,
    method: choice.method,
    bank: bankOf(choice),
  });
}

/**
 * Sends an open attempt to the provider: a code to charge, or an order the customer pays on the
 * provider's page. A refused connection fails the attempt with `provider_unavailable`; a timeout
 * or lost answer is PENDING (the order may exist) and reconciliation decides.
 */
export async function authorizeAttempt(
  services: Services,
  payment: PaymentRecord,
  attempt: PaymentAttemptRow,
  choice: MethodChoice,
  payer: Payer,
): Promise<AuthorizationAnswer> {
  const offer = (await findOffer(services.store.db, payment.org_id, payment.qr_id))!;
  try {
    return await services.provider.authorize({
      attemptId: attempt.public_id,
      paymentId: payment.public_id,
      amount: payment.amount,
      currency: payment.currency,
      method: choice,
      description: offer.name,
      customerIp: payer.ip,
      buyerEmail: payment.customer_email,
      products: [{
        name: offer.name,
        unitPrice: Math.floor(payment.amount / payment.quantity),
        quantity: payment.quantity,
      }],
      language: payer.language ?? (isLanguage(payment.locale) ? payment.locale : "pl"),
      returnUrl: returnUrl(services.config.publicUrl, payment.public_id),
      validForSeconds: Math.max(
        60,
        Math.ceil(((attempt.deadline_at ?? 0) - attempt.created_at) / 1000),
      ),
    });
  } catch (error) {
    const unreachable = error instanceof ProviderUnavailableError;
    services.log.warn(
      unreachable ? "provider unreachable; attempt failed" : "provider answer unknown; polling",
      { attemptId: attempt.public_id, ...errorFields(error) },
    );
    return {
      reference: null,
      outcome: unreachable
        ? { status: "FAILED", failureCode: "provider_unavailable" }
        : { status: "PENDING" },
    };
  }
}

/**
 * Applies the provider's first answer to an attempt in `trx`: an outcome goes through
 * `applyAttemptOutcome`; a page to send the customer to is kept on the open attempt, which stays
 * undecided (its payment PENDING) until the provider's notification or a lookup says.
 */
export async function applyAuthorization(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  attemptId: string,
  answer: AuthorizationAnswer,
  now: number,
): Promise<AttemptStart> {
  if ("outcome" in answer) {
    const payment = await applyAttemptOutcome(trx, services, attemptId, answer, now);
    return { payment: payment!, redirectUrl: null };
  }
  const attempt = (await findAttemptByPublicId(trx, attemptId))!;
  await updateOpenAttempt(trx, attempt.id, {
    provider_ref: answer.reference,
    redirect_url: answer.redirectUrl,
    updated_at: now,
  });
  const payment = (await findPayment(trx, attempt.org_id, attempt.payment_public_id))!;
  return { payment, redirectUrl: attempt.status === "OPEN" ? answer.redirectUrl : null };
}

/**
 * Makes way for a new attempt on `payment`: an undecided redirect attempt (the customer left the
 * bank's page) is given up at its provider first, so that order can no longer be paid. The same
 * choice again keeps it: its page is returned, to send the customer back there. An open code
 * attempt is left alone (the new attempt then gets 409).
 */
export async function makeWayForAttempt(
  services: Services,
  payment: PaymentRecord,
  choice: MethodChoice,
): Promise<string | null> {
  const open = await findOpenAttempt(services.store.db, payment.id);
  if (!open || flowOf(open.method as PaymentMethod) !== "redirect") return null;
  if (
    open.method === choice.method && open.bank === bankOf(choice) && open.redirect_url !== null
  ) {
    return open.redirect_url;
  }
  const attempt = (await findAttemptByPublicId(services.store.db, open.public_id))!;
  await giveUpAttempt(services, attempt);
  return null;
}

/**
 * Gives up an open redirect attempt: cancelled at its provider, then CANCELED here. When the
 * provider refuses or cannot be asked, what it says of the order decides (paid: the payment
 * succeeds with it); when nothing can be learned, the attempt is CANCELED here and watched until
 * its deadline, since money it takes later must still be recorded (and refunded).
 */
export async function giveUpAttempt(services: Services, attempt: AttemptRecord): Promise<void> {
  const reference = { attemptId: attempt.public_id, reference: attempt.provider_ref };
  const { provider, log } = services;
  let confirmed = true;
  try {
    await withDeadline(provider.cancel(reference), GIVE_UP_TIMEOUT_MS, "the cancellation");
  } catch (error) {
    log.warn("the provider did not cancel an attempt given up; asking it", {
      attemptId: attempt.public_id,
      ...errorFields(error),
    });
    confirmed = false;
    try {
      const found = await withDeadline(provider.lookup(reference), GIVE_UP_TIMEOUT_MS, "the order");
      if (found && found.outcome.status !== "PENDING") {
        const answer = found;
        await services.store.write((trx) =>
          applyAttemptOutcome(trx, services, attempt.public_id, answer, services.clock.now())
        );
        return;
      }
    } catch (lookupError) {
      log.warn("the provider's word on an attempt given up is unknown", errorFields(lookupError));
    }
  }
  const now = services.clock.now();
  await services.store.write(async (trx) => {
    const canceled = await updateOpenAttempt(trx, attempt.id, {
      status: "CANCELED",
      watch_until: confirmed ? null : Math.max(attempt.deadline_at ?? now, now + POLL_INTERVAL_MS),
      check_at: now + POLL_INTERVAL_MS,
      finished_at: now,
      updated_at: now,
    });
    if (!canceled) return;
    afterCommit(trx, () => {
      if (!confirmed) services.scheduler.wake(PAYMENT_ATTEMPTS_JOB, now + POLL_INTERVAL_MS);
      // Its payment may be past its expiry, which the open attempt held back.
      services.scheduler.wake(PAYMENT_DEADLINES_JOB, now);
    });
  });
}

/**
 * Starts an attempt by the customer's choice on a pending payment, the one way every attempt
 * starts (hosted page, checkout iframe, sandbox operations). The attempt is committed before the
 * provider hears of it (a crash after sending is reconciled by asking the provider about the
 * attempt's id); the answer is applied with compare-and-set, so of two concurrent attempts one is
 * sent and the other gets 409.
 */
export async function startAttempt(
  ctx: OrgContext,
  payment: PaymentRecord,
  choice: MethodChoice,
  payer: Payer,
): Promise<AttemptStart> {
  const { services } = ctx;
  assertPayable(payment, ctx.now());
  await requireChoiceAvailable(services, payment, choice);
  const again = await makeWayForAttempt(services, payment, choice);
  if (again !== null) return { payment, redirectUrl: again };
  // NOTE: its own write, not ctx.write: the attempt must be on disk before the provider is
  // called even when the request's write (an Idempotency-Key's) is later undone.
  const attempt = await services.store.write((trx) =>
    openAttempt(trx, services, payment, choice, payer, {
      orgNow: ctx.now(),
      now: services.clock.now(),
    })
  );
  const answer = await authorizeAttempt(services, payment, attempt, choice, payer);
  return await ctx.write((trx) =>
    applyAuthorization(trx, services, attempt.public_id, answer, services.clock.now())
  );
}
