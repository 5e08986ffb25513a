import type { EnteredDetails } from "../components/CustomerFields.tsx";
import { Island } from "../components/Island.tsx";
import { LanguageSwitch } from "../components/LanguageSwitch.tsx";
import { Layout } from "../components/Layout.tsx";
import { OrderSummary } from "../components/OrderSummary.tsx";
import { SandboxBanner, TestCodes } from "../components/Sandbox.tsx";
import { SellerFooter } from "../components/SellerFooter.tsx";
import { codeEntryText } from "../lib/checkout/code_entry_words.ts";
import type { PaymentPage } from "../lib/checkout/pages.ts";
import { translator } from "../lib/i18n/mod.ts";
import { switchLink } from "./customer_language.ts";

/**
 * The hosted payment page, in the customer's language. `lang` is the page's `?lang=` query
 * (empty when the customer did not choose), kept by its forms; `entered` is a plain form's
 * details sent back with what was wrong.
 */
export function HostedPage(props: { page: PaymentPage; lang: string; entered?: EnteredDetails }) {
  const { page } = props;
  const { payment, summary, state } = page;
  const words = translator(page.language);
  const { t } = words;
  const path = `/pay/${payment.public_id}`;
  return (
    <Layout
      title={t("page.hostedTitle", { merchant: summary.merchantName, item: summary.title })}
      variant="hosted"
      islands
      refreshSeconds={page.refreshSeconds}
      lang={page.language}
    >
      {page.sandbox && <SandboxBanner t={t} />}
      <main class="checkout checkout--hosted">
        <LanguageSwitch link={switchLink(path, page.language)} />
        <div class="checkout__summary">
          <OrderSummary summary={summary} t={t} />
        </div>
        <div class="checkout__pay">
          <section class="pay" aria-label={t("page.paymentSection")}>
            <Island
              name="CodeEntry"
              props={{
                mode: "hosted",
                actionUrl: `${path}${props.lang}`,
                stateUrl: `${path}/state`,
                sessionId: null,
                parentOrigin: null,
                successUrl: payment.success_url,
                cancelUrl: payment.cancel_url,
                expiresInSeconds: page.expiresInSeconds,
                initial: state,
                text: codeEntryText(words, {
                  merchant: summary.merchantName,
                  amount: summary.totalLabel,
                  embedded: false,
                }),
                askEmail: page.askEmail,
                emailRequired: page.emailRequired,
                offersInvoices: page.offersInvoices,
                againUrl: `${path}/again${props.lang}`,
                entered: props.entered,
              }}
            />
          </section>
          {page.testCodes && <TestCodes t={t} />}
        </div>
      </main>
      <SellerFooter seller={page.seller} t={t} />
    </Layout>
  );
}
