/**
 * What PayU's sandbox does with a BLIK authorization code (developers.payu.com, BLIK testing):
 * 777xxx and 200201 authorise, 500500 is refused, 700701/700702/700703 are an expired,
 * cancelled and already used code. Any other 6 digits: PayU documents nothing, so the fake
 * plays a customer who never confirms in the banking app (see `confirmTimeoutMs`).
 */
import { BLIK_RESULT_CODES } from "./wire.ts";

/** How an order with this code ends. */
type BlikOutcome =
  | { kind: "completed" }
  | { kind: "canceled"; resultCode: string }
  | { kind: "unconfirmed" };

/** The outcome PayU's sandbox gives a 6-digit code. */
export function outcomeOf(code: string): BlikOutcome {
  if (/^777\d{3}$/.test(code) || code === "200201") return { kind: "completed" };
  switch (code) {
    case "500500":
      return { kind: "canceled", resultCode: BLIK_RESULT_CODES.declined };
    case "700701":
      return { kind: "canceled", resultCode: BLIK_RESULT_CODES.expired };
    case "700702":
      return { kind: "canceled", resultCode: BLIK_RESULT_CODES.canceled };
    case "700703":
      return { kind: "canceled", resultCode: BLIK_RESULT_CODES.used };
    default:
      return { kind: "unconfirmed" };
  }
}
