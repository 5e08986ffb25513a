import type { FailureCode } from "../lib/providers/mod.ts";

/** The messages the checkout iframe posts to the embedding page (CONTRACT.md), exactly. */
export type CheckoutMessage =
  | { type: "CHECKOUT_READY"; sessionId: string }
  | { type: "CHECKOUT_RESIZE"; sessionId: string; height: number }
  | { type: "CHECKOUT_PROCESSING"; sessionId: string }
  | { type: "CHECKOUT_COMPLETED"; sessionId: string; paymentId: string }
  | { type: "CHECKOUT_FAILED"; sessionId: string; paymentId: string; failureCode: FailureCode }
  | { type: "CHECKOUT_EXPIRED"; sessionId: string }
  | { type: "CHECKOUT_CANCELED"; sessionId: string };

/**
 * Posts a message to the embedding page, only to `parentOrigin` (the session's embedLink origin)
 * and never to "*", so no other page that frames this one can read it.
 */
export function postToParent(parentOrigin: string, message: CheckoutMessage): void {
  if (globalThis.parent && globalThis.parent !== globalThis.window) {
    globalThis.parent.postMessage(message, parentOrigin);
  }
}
