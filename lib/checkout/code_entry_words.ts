import { FAILURE_CODES, type FailureCode } from "../providers/mod.ts";
import type { Language, Translator } from "../i18n/mod.ts";
import { type CodeEntryText, PAYMENT_SLOT, TIME_SLOT } from "./code_entry_text.ts";
import { LOCK_MS } from "./guard.ts";

/** The words that name no payment: the same for every page of a language and mode. */
type FixedWords = Omit<
  CodeEntryText,
  | "submit"
  | "waitText"
  | "successText"
  | "successRedirect"
  | "noRetry"
  | "expiredText"
  | "canceledText"
  | "back"
>;

// NOTE: made once per language and mode: formatting them on every render cost the hosted page a
// fifth of its throughput (bench: GET /pay/{id}).
const fixed = new Map<string, FixedWords>();

function fixedWords(t: Translator["t"], language: Language, embedded: boolean): FixedWords {
  const id = `${language}:${embedded}`;
  let words = fixed.get(id);
  if (words) return words;
  const failures = Object.fromEntries(
    FAILURE_CODES.map((code) => [code, t(`failed.${code}`)]),
  ) as Record<FailureCode, string>;
  words = {
    heading: t("code.heading"),
    hint: t("code.hint"),
    codeLabel: t("code.label"),
    codeInvalid: t("code.invalid"),
    emailLabel: t("details.emailLabel"),
    emailHint: t("details.emailHint"),
    emailInvalid: t("details.emailInvalid"),
    emailLabelRequired: t("details.emailLabelRequired"),
    emailHintRenewal: t("details.emailHintRenewal"),
    emailMissing: t("details.emailMissing"),
    invoice: t("details.invoice"),
    companyName: t("details.companyName"),
    taxId: t("details.taxId"),
    companyNameMissing: t("details.companyNameMissing"),
    taxIdInvalid: t("details.taxIdInvalid"),
    waitTitle: t("wait.title"),
    countdown: t("wait.countdown", { time: TIME_SLOT }),
    late: t("wait.late"),
    successTitle: t("success.title"),
    successReference: t("success.reference", { paymentId: PAYMENT_SLOT }),
    successContinue: t("success.continue"),
    successClose: t("success.close"),
    failedTitle: t("failed.title"),
    nothingCharged: t("failed.nothingCharged"),
    failures: { ...failures, unknown: t("failed.unknown") },
    retry: t("failed.retry"),
    lockedTitle: t("locked.title"),
    lockedMinutes: Array.from(
      { length: Math.ceil(LOCK_MS / 60_000) },
      (_, index) => t("locked.text", { minutes: index + 1 }),
    ),
    expiredTitle: t(embedded ? "expired.checkoutTitle" : "expired.linkTitle"),
    canceledTitle: t("canceled.title"),
    cancel: t("action.cancel"),
    offline: t("notice.offline"),
    stale: t("notice.stale"),
    serverError: t("notice.serverError"),
  };
  fixed.set(id, words);
  return words;
}

/** The island's words for a payment of `amount` to `merchant`, in the translator's language. */
export function codeEntryText(
  translator: Translator,
  context: { merchant: string; amount: string; embedded: boolean },
): CodeEntryText {
  const { t } = translator;
  const { merchant, amount, embedded } = context;
  return {
    ...fixedWords(t, translator.language, embedded),
    submit: t("code.submit", { amount }),
    waitText: t("wait.text", { amount, merchant }),
    successText: t("success.text", { amount, merchant }),
    successRedirect: t("success.redirect", { merchant }),
    noRetry: t("failed.noRetry", { merchant }),
    expiredText: t(embedded ? "expired.checkoutText" : "expired.linkText", { merchant }),
    canceledText: t("canceled.text", { merchant }),
    back: t("action.back", { merchant }),
  };
}
