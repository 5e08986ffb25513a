import { SandboxBanner } from "../components/Sandbox.tsx";
import { MessagePage } from "../components/MessagePage.tsx";
import type { SandboxBankPage } from "../lib/checkout/sandbox_bank_page.ts";
import { translator } from "../lib/i18n/mod.ts";
import { switchLink } from "./customer_language.ts";

/** Where the sandbox sends a customer who chose a bank, a card or a wallet: pay, decline, leave. */
export function SandboxBankView(props: { page: SandboxBankPage; lang: string }) {
  const { page } = props;
  const { t } = translator(page.language);
  const path = `/sandbox/redirect/${page.attemptId}`;
  const place = page.bankName ??
    t(`sandboxBank.${page.method as "card" | "google_pay" | "apple_pay"}`);
  const action = (name: "pay" | "decline" | "leave", label: string, primary: boolean) => (
    <form method="post" action={`${path}${props.lang}`}>
      <input type="hidden" name="action" value={name} />
      <button type="submit" class={`button ${primary ? "button--primary" : "button--secondary"}`}>
        {label}
      </button>
    </form>
  );
  return (
    <MessagePage
      title={t("sandboxBank.title")}
      tone="neutral"
      lang={page.language}
      switchTo={switchLink(path, page.language)}
    >
      <SandboxBanner t={t} />
      <p>
        {t("sandboxBank.text", { place, amount: page.amountLabel, merchant: page.merchantName })}
      </p>
      {page.canceled && <p role="note">{t("sandboxBank.canceled")}</p>}
      {!page.decidable && <p role="status">{t("sandboxBank.decided")}</p>}
      <div class="message__actions">
        {page.decidable &&
          action("pay", t("sandboxBank.pay", { amount: page.amountLabel }), true)}
        {page.decidable && action("decline", t("sandboxBank.decline"), false)}
        {action("leave", t("sandboxBank.leave"), false)}
      </div>
    </MessagePage>
  );
}
