import { Hono } from "hono";
import { Island } from "../components/Island.tsx";
import { Layout } from "../components/Layout.tsx";
import { MessagePage } from "../components/MessagePage.tsx";
import { OrderSummary } from "../components/OrderSummary.tsx";
import { SandboxBanner, TestCodes } from "../components/Sandbox.tsx";
import { SecuredBy } from "../components/SecuredBy.tsx";
import {
  attemptPaymentCode,
  loadPaymentPage,
  loadPaymentState,
  type PaymentPage,
  startOfferPayment,
} from "../lib/checkout/pages.ts";
import type { Services } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { findPublicPayment } from "../lib/payments/mod.ts";
import { limitCodeForm, readCodeSubmission } from "./code_form.ts";
import type { AppEnv } from "./env.ts";
import { renderPage } from "./html.tsx";
import { clientAddress } from "./middleware/client_address.ts";
import { sameOriginOnly } from "./middleware/same_origin.ts";

function HostedPage(props: { page: PaymentPage }) {
  const { payment, summary, state } = props.page;
  const path = `/pay/${payment.public_id}`;
  return (
    <Layout
      title={`Pay ${summary.merchantName} · ${summary.title}`}
      variant="hosted"
      islands
      refreshSeconds={props.page.refreshSeconds}
    >
      {props.page.sandbox && <SandboxBanner />}
      <main class="checkout checkout--hosted">
        <div class="checkout__summary">
          <OrderSummary summary={summary} />
        </div>
        <div class="checkout__pay">
          <section class="pay" aria-label="Payment">
            <Island
              name="CodeEntry"
              props={{
                mode: "hosted",
                actionUrl: path,
                stateUrl: `${path}/state`,
                sessionId: null,
                parentOrigin: null,
                merchantName: summary.merchantName,
                amountLabel: summary.totalLabel,
                successUrl: payment.success_url,
                cancelUrl: payment.cancel_url,
                expiresInSeconds: props.page.expiresInSeconds,
                initial: state,
              }}
            />
          </section>
          {props.page.testCodes && <TestCodes />}
          <SecuredBy />
        </div>
      </main>
    </Layout>
  );
}

/**
 * The hosted payment page (`paymentUrl`), its state and code submission, and `/o/{qrId}`, what an
 * offer's QR code opens: it starts a payment and sends the browser to its hosted page.
 */
export function createPayPages(services: Services): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/pay/:paymentId", async (c) => {
      const page = await loadPaymentPage(services, c.req.param("paymentId"));
      if (!page) throw notFound("payment", c.req.param("paymentId"));
      return renderPage(c, <HostedPage page={page} />);
    })
    .get("/pay/:paymentId/state", async (c) => {
      const state = await loadPaymentState(services, c.req.param("paymentId"));
      if (!state) throw notFound("payment", c.req.param("paymentId"));
      c.header("Cache-Control", "no-store");
      return c.json(state);
    })
    .post("/pay/:paymentId", sameOriginOnly(services), limitCodeForm, async (c) => {
      const paymentId = c.req.param("paymentId");
      const payment = await findPublicPayment(services, paymentId);
      if (!payment) throw notFound("payment", paymentId);
      const submission = await readCodeSubmission(c);
      const state = await attemptPaymentCode(services, payment, submission.code, {
        ip: clientAddress(c, services.config.trustedProxies),
      });
      if (submission.fromForm) return c.redirect(`/pay/${paymentId}`, 303);
      c.header("Cache-Control", "no-store");
      return c.json(state);
    })
    .get("/o/:qrId", async (c) => {
      // Link checkers ask with HEAD; only opening the link starts a payment.
      if (c.req.method === "HEAD") return c.body(null, 204, { "Cache-Control": "no-store" });
      const start = await startOfferPayment(services, c.req.param("qrId"));
      if (!start) throw notFound("offer", c.req.param("qrId"));
      if (start.kind === "unavailable") {
        return renderPage(
          c,
          <MessagePage title="This offer is no longer available" tone="neutral">
            <p>
              {start.merchantName}{" "}
              no longer sells “{start.offerName}” through this code. Nothing was charged.
            </p>
          </MessagePage>,
          { status: 410 },
        );
      }
      c.header("Cache-Control", "no-store");
      return c.redirect(`/pay/${start.payment.public_id}`, 303);
    });
}
