import { FAILURE_CODES, type FailureCode } from "../providers/mod.ts";
import type { Translator } from "../i18n/mod.ts";
import { type CodeEntryText, PAYMENT_SLOT, TIME_SLOT } from "./code_entry_text.ts";
import { LOCK_MS } from "./guard.ts";

/** The island's words for a payment of `amount` to `merchant`, in `t`'s language. */
export function codeEntryText(
  t: Translator["t"],
  context: { merchant: string; amount: string; embedded: boolean },
): CodeEntryText {
  const { merchant, amount } = context;
  const failures = Object.fromEntries(
    FAILURE_CODES.map((code) => [code, t(`failed.${code}`)]),
  ) as Record<FailureCode, string>;
  return {
    heading: t("code.heading"),
    hint: t("code.hint"),
    codeLabel: t("code.label"),
    submit: t("code.submit", { amount }),
    codeInvalid: t("code.invalid"),
    emailLabel: t("details.emailLabel"),
    emailHint: t("details.emailHint"),
    emailInvalid: t("details.emailInvalid"),
    invoice: t("details.invoice"),
    companyName: t("details.companyName"),
    taxId: t("details.taxId"),
    companyNameMissing: t("details.companyNameMissing"),
    taxIdInvalid: t("details.taxIdInvalid"),
    waitTitle: t("wait.title"),
    waitText: t("wait.text", { amount, merchant }),
    countdown: t("wait.countdown", { time: TIME_SLOT }),
    late: t("wait.late"),
    successTitle: t("success.title"),
    successText: t("success.text", { amount, merchant }),
    successReference: t("success.reference", { paymentId: PAYMENT_SLOT }),
    successRedirect: t("success.redirect", { merchant }),
    successContinue: t("success.continue"),
    successClose: t("success.close"),
    failedTitle: t("failed.title"),
    nothingCharged: t("failed.nothingCharged"),
    failures: { ...failures, unknown: t("failed.unknown") },
    retry: t("failed.retry"),
    noRetry: t("failed.noRetry", { merchant }),
    lockedTitle: t("locked.title"),
    lockedMinutes: Array.from(
      { length: Math.ceil(LOCK_MS / 60_000) },
      (_, index) => t("locked.text", { minutes: index + 1 }),
    ),
    expiredTitle: t(context.embedded ? "expired.checkoutTitle" : "expired.linkTitle"),
    expiredText: t(context.embedded ? "expired.checkoutText" : "expired.linkText", { merchant }),
    canceledTitle: t("canceled.title"),
    canceledText: t("canceled.text", { merchant }),
    cancel: t("action.cancel"),
    back: t("action.back", { merchant }),
    offline: t("notice.offline"),
    stale: t("notice.stale"),
    serverError: t("notice.serverError"),
  };
}
