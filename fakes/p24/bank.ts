/**
 * What the customer does on P24's page (`/trnRequest/{token}`): pay with the method the shop
 * chose at registration (or one chosen here), decline, or go back. The page's buttons and the
 * control API both come here, so a test can pay at a precise moment exactly as the button does.
 * P24 "does not send information on invalid or failed payments": a decline notifies nothing.
 */
import type { P24Context } from "./context.ts";
import { methodsFor } from "./methods.ts";
import type { FakeTransaction } from "./state.ts";
import { pay } from "./transactions.ts";

/** A button of the page. */
export type BankAction = "pay" | "decline" | "leave";

/** What came of it. */
export type BankResult =
  /** Done; the browser goes back to urlReturn. */
  | { kind: "done"; location: string }
  /** Paid before (here, by BLIK, or declined here before). */
  | { kind: "decided" }
  /** No method was chosen, or the chosen one is not available for this transaction. */
  | { kind: "method" };

/** Applies the customer's action; with waitForResult the notification goes out first. */
export async function actAtBank(
  ctx: P24Context,
  t: FakeTransaction,
  action: BankAction,
  methodId?: number,
): Promise<BankResult> {
  const back = { kind: "done", location: t.request.urlReturn } as const;
  if (action === "leave") return back;
  if (t.paidAt !== null || t.bankOutcome !== null) return { kind: "decided" };
  if (action === "decline") {
    t.bankOutcome = "declined";
    return back;
  }
  const chosen = t.request.method ?? methodId;
  const allowed = methodsFor(ctx, "pl", t.request).some((method) =>
    method.id === chosen && method.status
  );
  if (chosen === undefined || !allowed) return { kind: "method" };
  t.bankOutcome = "paid";
  const messages = pay(ctx, t, chosen)!;
  if (t.request.waitForResult) await ctx.notifier.sendNow(messages);
  else ctx.notifier.send(messages);
  return back;
}
