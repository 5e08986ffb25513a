import { Hono } from "hono";
import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { resendCustomerEmail } from "../../../lib/emails/outbox.ts";
import { loadPaymentList, refundFromForm, reviewRefund } from "../../../lib/panel/payments.ts";
import { cancelPayment, completePayment } from "../../../lib/payments/pay.ts";
import { cancelSubscription } from "../../../lib/subscriptions/mod.ts";
import { allow } from "../kit/access.ts";
import { can } from "../../../lib/accounts/access.ts";
import { orgCtx, type PanelEnv, subjectOf, translatorOf } from "../kit/context.ts";
import { field, readForm, redirectWith, runFormAction } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { PaymentListPage } from "./pages.tsx";
import { BLANK_REFUND, renderPayment, renderRefundForm } from "./render.ts";

/**
 * Payments, at /panel/payments: the list with filters, and each payment with its events,
 * refunds (confirmed before they are made) and subscription.
 */
export function createPaymentArea(services: Services): Hono<PanelEnv> {
  return new Hono<PanelEnv>()
    .get("/", allow(services, "payments.view"), async (c) => {
      const list = await loadPaymentList(orgCtx(c), {
        status: c.req.query("status") || undefined,
        qrId: c.req.query("qrId") || undefined,
        startingAfter: c.req.query("startingAfter") || undefined,
      });
      return renderPanel(services, c, {
        title: translatorOf(c).t("panel.payments.title"),
        current: "payments",
        body: h(PaymentListPage, {
          ...list,
          records: can(
            "payments.records",
            subjectOf(c.get("session")),
            services.config.quickstartAccess,
          ),
        }),
      });
    })
    .get(
      "/:paymentId",
      allow(services, "payments.view"),
      (c) => renderPayment(services, c, c.req.param("paymentId"), BLANK_REFUND),
    )
    .post("/:paymentId/refunds/confirm", allow(services, "payments.refund"), async (c) => {
      const paymentId = c.req.param("paymentId");
      const form = await readForm(c);
      const result = await runFormAction(
        c,
        () => reviewRefund(orgCtx(c), paymentId, (name) => field(form, name)),
      );
      if (!result.ok) return renderRefundForm(services, c, paymentId, form, result.problem);
      return renderPayment(services, c, paymentId, { kind: "confirm", review: result.value });
    })
    .post("/:paymentId/refunds", allow(services, "payments.refund"), async (c) => {
      const paymentId = c.req.param("paymentId");
      const form = await readForm(c);
      const result = await runFormAction(
        c,
        () => refundFromForm(orgCtx(c), paymentId, (name) => field(form, name)),
      );
      if (!result.ok) return renderRefundForm(services, c, paymentId, form, result.problem);
      return redirectWith(c, `/panel/payments/${paymentId}`, "refunded");
    })
    .post("/:paymentId/emails/:emailId/resend", allow(services, "payments.email"), async (c) => {
      const paymentId = c.req.param("paymentId");
      await resendCustomerEmail(orgCtx(c), paymentId, c.req.param("emailId"));
      return redirectWith(c, `/panel/payments/${paymentId}`, "email-resent");
    })
    .post("/:paymentId/cancel", allow(services, "payments.refund"), async (c) => {
      const paymentId = c.req.param("paymentId");
      await cancelPayment(orgCtx(c), paymentId);
      return redirectWith(c, `/panel/payments/${paymentId}`, "canceled");
    })
    .post("/:paymentId/complete", allow(services, "developers"), async (c) => {
      const paymentId = c.req.param("paymentId");
      const form = await readForm(c);
      await completePayment(orgCtx(c), paymentId, { code: field(form, "code") });
      return redirectWith(c, `/panel/payments/${paymentId}`, "completed");
    });
}

/** Subscriptions, at /panel/subscriptions: ending one, from the page of its first payment. */
export function createSubscriptionArea(services: Services): Hono<PanelEnv> {
  return new Hono<PanelEnv>()
    .post("/:subscriptionId/cancel", allow(services, "subscriptions.cancel"), async (c) => {
      const form = await readForm(c);
      const atPeriodEnd = field(form, "atPeriodEnd") === "true";
      const subscription = await cancelSubscription(orgCtx(c), c.req.param("subscriptionId"), {
        atPeriodEnd,
      });
      return redirectWith(
        c,
        `/panel/payments/${subscription.first_payment_public_id}`,
        atPeriodEnd ? "subscription-scheduled" : "subscription-canceled",
      );
    });
}
