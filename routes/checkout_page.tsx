import type { EnteredDetails } from "../components/CustomerFields.tsx";
import { Island } from "../components/Island.tsx";
import { LanguageSwitch } from "../components/LanguageSwitch.tsx";
import { Layout } from "../components/Layout.tsx";
import { OrderSummary } from "../components/OrderSummary.tsx";
import { SandboxBanner, TestCodes } from "../components/Sandbox.tsx";
import { SellerFooter } from "../components/SellerFooter.tsx";
import { codeEntryText } from "../lib/checkout/code_entry_words.ts";
import type { SessionPage } from "../lib/checkout/pages.ts";
import { translator } from "../lib/i18n/mod.ts";
import { switchLink } from "./customer_language.ts";

/**
 * The checkout iframe's page, in the customer's language. `lang` is the page's `?lang=` query
 * (empty when the customer did not choose), kept by its forms; `entered` is a plain form's
 * details sent back with what was wrong.
 */
export function CheckoutPage(props: { page: SessionPage; lang: string; entered?: EnteredDetails }) {
  const { page } = props;
  const { session, summary, state } = page;
  const words = translator(page.language);
  const { t } = words;
  const path = `/checkout/${session.public_id}`;
  return (
    <Layout
      title={t("page.checkoutTitle", { merchant: summary.merchantName, item: summary.title })}
      variant="embedded"
      islands
      refreshSeconds={page.refreshSeconds}
      lang={page.language}
    >
      <main class="checkout checkout--embedded">
        {page.sandbox && <SandboxBanner t={t} />}
        <LanguageSwitch link={switchLink(path, page.language)} />
        <OrderSummary summary={summary} t={t} />
        <section class="pay" aria-label={t("page.paymentSection")}>
          <Island
            name="CodeEntry"
            props={{
              mode: "embedded",
              actionUrl: `${path}${props.lang}`,
              stateUrl: `${path}/state`,
              sessionId: session.public_id,
              parentOrigin: session.embed_origin,
              successUrl: session.success_url,
              cancelUrl: session.cancel_url,
              expiresInSeconds: page.expiresInSeconds,
              initial: state,
              text: codeEntryText(words, {
                merchant: summary.merchantName,
                amount: summary.totalLabel,
                embedded: true,
              }),
              askEmail: page.askEmail,
              emailRequired: page.emailRequired,
              offersInvoices: page.offersInvoices,
              againUrl: null,
              entered: props.entered,
            }}
          />
        </section>
        {page.testCodes && <TestCodes t={t} />}
        <SellerFooter seller={page.seller} t={t} />
      </main>
    </Layout>
  );
}
