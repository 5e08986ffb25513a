import type { TestPayments } from "../mod.ts";
import type { PayuConfig } from "./config.ts";

/** The host of PayU's sandbox, where no real money moves. */
export const PAYU_SANDBOX_HOST = "secure.snd.payu.com";
/** The POS id of PayU's public sandbox point of sale, printed in PayU's documentation. */
export const PAYU_PUBLIC_SANDBOX_POS_ID = "300746";

/**
 * Why PayU configured this way takes no real money: its sandbox host, or its public sandbox
 * POS; null when it may be real. The panel says it in its language.
 */
export function payuTestReason(config: PayuConfig): TestPayments | null {
  if (new URL(config.apiUrl).hostname === PAYU_SANDBOX_HOST) {
    return { kind: "host", setting: "PAYU_API_URL", host: PAYU_SANDBOX_HOST };
  }
  if (config.posId === PAYU_PUBLIC_SANDBOX_POS_ID) {
    return { kind: "pos", setting: "PAYU_POS_ID", posId: config.posId };
  }
  return null;
}

/** The same, in English, for the operator's `doctor`; null when it may be real. */
export function payuTestSetup(config: PayuConfig): string | null {
  const reason = payuTestReason(config);
  if (reason === null) return null;
  return reason.kind === "host"
    ? `PAYU_API_URL is PayU's sandbox (${reason.host})`
    : `PAYU_POS_ID ${reason.posId} is PayU's public sandbox POS`;
}
