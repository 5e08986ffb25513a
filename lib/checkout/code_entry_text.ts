import type { FailureCode } from "../providers/mod.ts";

/** Where a value the browser knows only later goes in a message (the countdown's time). */
export const TIME_SLOT = "{time}";
/** Where the payment's id goes in the success message. */
export const PAYMENT_SLOT = "{paymentId}";

/**
 * Every word of the code-entry island, already in the customer's language (codeEntryText in
 * code_entry_words.ts): the island gets them as props, so the browser bundle carries no
 * catalogue. Only what the browser learns later is filled in by it: the countdown's time at
 * `TIME_SLOT`, the payment's id at `PAYMENT_SLOT`.
 */
export interface CodeEntryText {
  heading: string;
  hint: string;
  codeLabel: string;
  submit: string;
  codeInvalid: string;
  emailLabel: string;
  emailHint: string;
  emailInvalid: string;
  /** The e-mail field where a subscription's renewal links go: required. */
  emailLabelRequired: string;
  emailHintRenewal: string;
  emailMissing: string;
  invoice: string;
  companyName: string;
  taxId: string;
  companyNameMissing: string;
  taxIdInvalid: string;
  waitTitle: string;
  waitText: string;
  countdown: string;
  late: string;
  successTitle: string;
  successText: string;
  successReference: string;
  successRedirect: string;
  successContinue: string;
  successClose: string;
  failedTitle: string;
  nothingCharged: string;
  failures: Record<FailureCode | "unknown", string>;
  retry: string;
  noRetry: string;
  lockedTitle: string;
  /** The locked message for 1, 2, ... minutes left (index 0 is one minute). */
  lockedMinutes: string[];
  expiredTitle: string;
  expiredText: string;
  canceledTitle: string;
  canceledText: string;
  cancel: string;
  back: string;
  offline: string;
  stale: string;
  serverError: string;
}
