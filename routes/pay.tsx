import { Hono } from "hono";
import { MessagePage } from "../components/MessagePage.tsx";
import { startPaymentAgain } from "../lib/checkout/again.ts";
import {
  attemptPaymentCode,
  choosePaymentMethod,
  loadPaymentPage,
  loadPaymentState,
  startOfferPayment,
} from "../lib/checkout/pages.ts";
import { loadReturnPage } from "../lib/checkout/return_page.ts";
import { providerPageOrigins } from "../lib/payments/methods.ts";
import type { Services } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { translator } from "../lib/i18n/mod.ts";
import { findPublicPayment } from "../lib/payments/mod.ts";
import {
  limitCodeForm,
  readChoiceSubmission,
  readCodeSubmission,
  sendBackDetails,
} from "./code_form.ts";
import { langQuery, languageRequest, switchLink } from "./customer_language.ts";
import type { AppEnv } from "./env.ts";
import { renderPage } from "./html.tsx";
import { clientAddress } from "./middleware/client_address.ts";
import { sameOriginOnly } from "./middleware/same_origin.ts";
import { HostedPage } from "./pay_page.tsx";
import { ReturnView } from "./return_page.tsx";
import { createSandboxBankPages } from "./sandbox_bank.tsx";

/**
 * The hosted payment page (`paymentUrl`), its state, code submission, a method paid on the
 * provider's page (`/redirect`) and the page the customer comes back to (`/return`), starting
 * again after a failure, and `/o/{qrId}`, what an offer's QR code opens: it starts a payment and sends the
 * browser to its hosted page. Every page speaks the customer's language and keeps `?lang`.
 */
export function createPayPages(services: Services): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .route("/", createSandboxBankPages(services))
    .get("/pay/:paymentId", async (c) => {
      const page = await loadPaymentPage(services, c.req.param("paymentId"), languageRequest(c));
      if (!page) throw notFound("payment", c.req.param("paymentId"));
      return renderPage(c, <HostedPage page={page} lang={langQuery(c)} />, {
        formTargets: providerPageOrigins(services),
      });
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
      const state = await sendBackDetails(
        submission,
        () =>
          attemptPaymentCode(services, payment, submission.code, {
            ip: clientAddress(c, services.config.trustedProxies),
            request: languageRequest(c),
          }, submission.details),
        async (entered) => {
          const page = (await loadPaymentPage(services, paymentId, languageRequest(c)))!;
          return renderPage(c, <HostedPage page={page} lang={langQuery(c)} entered={entered} />, {
            status: 400,
          });
        },
      );
      if (state instanceof Response) return state;
      if (submission.fromForm) return c.redirect(`/pay/${paymentId}${langQuery(c)}`, 303);
      c.header("Cache-Control", "no-store");
      return c.json(state);
    })
    .post("/pay/:paymentId/redirect", sameOriginOnly(services), limitCodeForm, async (c) => {
      const paymentId = c.req.param("paymentId");
      const payment = await findPublicPayment(services, paymentId);
      if (!payment) throw notFound("payment", paymentId);
      const submission = await readChoiceSubmission(c);
      const redirectUrl = await sendBackDetails(
        submission,
        () =>
          choosePaymentMethod(services, payment, submission, {
            ip: clientAddress(c, services.config.trustedProxies),
            request: languageRequest(c),
          }, submission.details),
        async (entered) => {
          const page = (await loadPaymentPage(services, paymentId, languageRequest(c)))!;
          return renderPage(c, <HostedPage page={page} lang={langQuery(c)} entered={entered} />, {
            status: 400,
            formTargets: providerPageOrigins(services),
          });
        },
      );
      if (redirectUrl instanceof Response) return redirectUrl;
      c.header("Cache-Control", "no-store");
      if (submission.fromForm) {
        // The attempt ended at once (refused, or the provider unreachable): the page says so.
        return c.redirect(redirectUrl ?? `/pay/${paymentId}${langQuery(c)}`, 303);
      }
      return c.json({ redirectUrl, state: await loadPaymentState(services, paymentId) });
    })
    .get("/pay/:paymentId/return", async (c) => {
      const paymentId = c.req.param("paymentId");
      const since = Number(c.req.query("since"));
      const page = await loadReturnPage(
        services,
        paymentId,
        languageRequest(c),
        Number.isSafeInteger(since) && since > 0 ? since : null,
      );
      if (!page) throw notFound("payment", paymentId);
      return renderPage(c, <ReturnView page={page} lang={langQuery(c)} />);
    })
    .post("/pay/:paymentId/again", sameOriginOnly(services), limitCodeForm, async (c) => {
      const payment = await findPublicPayment(services, c.req.param("paymentId"));
      if (!payment) throw notFound("payment", c.req.param("paymentId"));
      const next = await startPaymentAgain(services, payment);
      return c.redirect(`/pay/${next.public_id}${langQuery(c)}`, 303);
    })
    .get("/o/:qrId", async (c) => {
      // Link checkers ask with HEAD; only opening the link starts a payment.
      if (c.req.method === "HEAD") return c.body(null, 204, { "Cache-Control": "no-store" });
      const qrId = c.req.param("qrId");
      const start = await startOfferPayment(services, qrId, languageRequest(c));
      if (!start) throw notFound("offer", qrId);
      if (start.kind === "unavailable") {
        const { t } = translator(start.language);
        return renderPage(
          c,
          <MessagePage
            title={t("offer.unavailableTitle")}
            tone="neutral"
            lang={start.language}
            switchTo={switchLink(`/o/${qrId}`, start.language)}
          >
            <p>
              {t("offer.unavailableText", { merchant: start.merchantName, offer: start.offerName })}
            </p>
          </MessagePage>,
          { status: 410 },
        );
      }
      c.header("Cache-Control", "no-store");
      return c.redirect(`/pay/${start.payment.public_id}${langQuery(c)}`, 303);
    });
}
