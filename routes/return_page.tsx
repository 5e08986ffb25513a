import { MessagePage } from "../components/MessagePage.tsx";
import type { ReturnPage } from "../lib/checkout/return_page.ts";
import { translator } from "../lib/i18n/mod.ts";
import { switchLink } from "./customer_language.ts";

/**
 * The page a customer comes back to from the provider's: it waits (reloading itself, with or
 * without JavaScript) until the payment is decided, then offers the way back to the shop.
 * `lang` is the page's `?lang=` query, kept by its links.
 */
export function ReturnView(props: { page: ReturnPage; lang: string }) {
  const { page } = props;
  const { t } = translator(page.language);
  const path = `/pay/${page.paymentId}`;
  const words = { amount: page.summary.totalLabel, merchant: page.merchantName };
  const langParam = props.lang ? `&${props.lang.slice(1)}` : "";
  const reload = page.refreshSeconds === undefined ? undefined : {
    seconds: page.refreshSeconds,
    url: `${path}/return?since=${page.since}${langParam}`,
  };
  const back = (url: string | null) =>
    url && <a class="button button--secondary" href={url}>{t("action.back", words)}</a>;
  const shell = (
    title: string,
    tone: "error" | "neutral" | "success",
    body: preact.JSX.Element,
  ) => (
    <MessagePage
      title={title}
      tone={tone}
      lang={page.language}
      switchTo={switchLink(`${path}/return`, page.language)}
      reload={reload}
    >
      {body}
    </MessagePage>
  );
  switch (page.phase) {
    case "waiting":
    case "late": {
      const late = page.phase === "late";
      return shell(
        t(late ? "return.lateTitle" : "return.waitingTitle"),
        "neutral",
        <>
          <p role="status">{t(late ? "return.lateText" : "return.waitingText", words)}</p>
          <div class="message__actions">
            <a class="button button--primary" href={reload!.url}>{t("return.check")}</a>
            {page.canChooseAgain && (
              <a class="button button--secondary" href={`${path}${props.lang}`}>
                {t("return.chooseAgain")}
              </a>
            )}
            {back(page.cancelUrl)}
          </div>
        </>,
      );
    }
    case "succeeded":
      return shell(
        t("success.title"),
        "success",
        <>
          <p>{t("success.text", words)}</p>
          <p class="message__reference">{t("success.reference", { paymentId: page.paymentId })}</p>
          <div class="message__actions">
            {page.successUrl
              ? (
                <a class="button button--primary" href={page.successUrl}>
                  {t("success.continue")}
                </a>
              )
              : <p>{t("success.close")}</p>}
          </div>
        </>,
      );
    case "notPaid":
      return shell(
        t("return.notPaidTitle"),
        "neutral",
        <>
          <p>{t("return.notPaidText")}</p>
          <div class="message__actions">
            {page.canChooseAgain && (
              <a class="button button--primary" href={`${path}${props.lang}`}>
                {t("return.chooseAgain")}
              </a>
            )}
            {back(page.cancelUrl)}
          </div>
        </>,
      );
    case "failed":
      return shell(
        t("failed.title"),
        "error",
        <>
          <p>{t("return.failedText")}</p>
          <div class="message__actions">
            {page.canStartAgain && (
              <form method="post" action={`${path}/again${props.lang}`}>
                <button type="submit" class="button button--primary">
                  {t("return.tryAgain")}
                </button>
              </form>
            )}
            {back(page.cancelUrl)}
          </div>
        </>,
      );
    case "expired":
      return shell(
        t("expired.linkTitle"),
        "error",
        <>
          <p>{t("expired.linkText", words)}</p>
          <div class="message__actions">{back(page.cancelUrl)}</div>
        </>,
      );
    case "canceled":
      return shell(
        t("canceled.title"),
        "error",
        <>
          <p>{t("canceled.text", words)}</p>
          <div class="message__actions">{back(page.cancelUrl)}</div>
        </>,
      );
  }
}
