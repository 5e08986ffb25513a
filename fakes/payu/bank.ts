/**
 * What the customer does at the bank (or on PayU's pay wall) with a redirect order: pay, decline
 * or go back to the shop. The pay page's buttons and the control API both come here, so a test
 * can pay at a precise moment exactly as the button does.
 */
import type { FakeContext } from "./context.ts";
import { settleOrder, undecided } from "./order_status.ts";
import { unavailability } from "./paymethods.ts";
import type { FakeOrder } from "./state.ts";

/** A button of the pay page. */
export type BankAction = "pay" | "decline" | "leave";

/** What came of it. */
export type BankResult =
  /** Done; the browser goes to `location` (the order's continueUrl), or stays when null. */
  | { kind: "done"; location: string | null }
  /** The order was decided before (paid, declined, cancelled by the shop, expired). */
  | { kind: "decided" }
  /** The pay wall needs a method, and this one is missing or not available now. */
  | { kind: "method" };

/** Applies the customer's action to a redirect or pay wall order. */
export function actAtBank(
  ctx: FakeContext,
  order: FakeOrder,
  action: BankAction,
  method?: string,
): BankResult {
  if (action === "leave") return { kind: "done", location: order.continueUrl ?? null };
  if (!undecided(order)) return { kind: "decided" };
  if (action === "pay" && order.flow === "paywall") {
    if (!method || unavailability(ctx, method, Number(order.totalAmount)) !== null) {
      return { kind: "method" };
    }
    order.payMethodValue = method;
    order.payMethodType = "PBL";
  }
  order.bankOutcome = action === "pay" ? "paid" : "declined";
  settleOrder(ctx, order.orderId, action === "pay" ? "COMPLETED" : "CANCELED", null);
  const back = order.continueUrl ?? null;
  return {
    kind: "done",
    location: back === null || action === "pay" ? back : withError501(back),
  };
}

/**
 * The continueUrl with PayU's failure mark: "If the payment has not been authorized, error=501
 * parameter will be added" (developers.payu.com/en/restapi.html, continueUrl). The merchant's URL
 * is kept as given (PayU's own example is `www.example.com/path`, with no scheme).
 */
export function withError501(continueUrl: string): string {
  const hashAt = continueUrl.indexOf("#");
  const base = hashAt === -1 ? continueUrl : continueUrl.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : continueUrl.slice(hashAt);
  const separator = base.includes("?") ? (/[?&]$/.test(base) ? "" : "&") : "?";
  return `${base}${separator}error=501${hash}`;
}
