import { Hono } from "hono";
import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { can } from "../../../lib/accounts/access.ts";
import {
  loadPaymentList,
  loadPaymentView,
  refundFromForm,
  reviewRefund,
} from "../../../lib/panel/payments.ts";
import { cancelPayment, completePayment } from "../../../lib/payments/mod.ts";
import { cancelSubscription } from "../../../lib/subscriptions/mod.ts";
import { allow } from "../kit/access.ts";
import { orgCtx, type PanelContext, type PanelEnv, subjectOf } from "../kit/context.ts";
import {
  attempt,
  field,
  type Form,
  type FormProblem,
  noticeOf,
  readForm,
  redirectWith,
} from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { type PaymentActions, PaymentDetailPage, PaymentListPage } from "./pages.tsx";
import type { RefundStep } from "./refunds_card.tsx";

const NOTICES = {
  refunded: "Refund created. It is PENDING until the payment method confirms, usually at once.",
  completed: "The sandbox payment was attempted with the test code.",
  canceled: "The payment was canceled.",
  "subscription-canceled": "The subscription is canceled.",
  "subscription-scheduled": "The subscription ends when the paid period does.",
} as const;

const BLANK_REFUND: RefundStep = { kind: "form", values: {}, problem: null };

function actionsOf(services: Services, c: PanelContext): PaymentActions {
  const subject = subjectOf(c.get("session"));
  const access = services.config.quickstartAccess;
  return {
    refund: can("payments.refund", subject, access),
    simulate: services.environment === "sandbox" && can("developers", subject, access),
    cancelSubscription: can("subscriptions.cancel", subject, access),
  };
}

async function renderPayment(
  services: Services,
  c: PanelContext,
  paymentId: string,
  refund: RefundStep,
  status = 200,
): Promise<Response> {
  const view = await loadPaymentView(orgCtx(c), paymentId, services.config.publicUrl);
  return renderPanel(services, c, {
    title: `Payment ${view.detail.payment.public_id}`,
    current: "payments",
    status,
    body: h(PaymentDetailPage, {
      view,
      notice: noticeOf(c, NOTICES),
      csrf: c.get("session").csrfToken,
      actions: actionsOf(services, c),
      refund,
    }),
  });
}

/** The payment's page with the refund form as sent, and what is wrong with it. */
function renderRefundForm(
  services: Services,
  c: PanelContext,
  paymentId: string,
  values: Form,
  problem: FormProblem,
): Promise<Response> {
  return renderPayment(services, c, paymentId, { kind: "form", values, problem }, problem.status);
}

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
        title: "Payments",
        current: "payments",
        body: h(PaymentListPage, list),
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
      const result = await attempt(() =>
        reviewRefund(orgCtx(c), paymentId, (name) => field(form, name))
      );
      if (!result.ok) return renderRefundForm(services, c, paymentId, form, result.problem);
      return renderPayment(services, c, paymentId, { kind: "confirm", review: result.value });
    })
    .post("/:paymentId/refunds", allow(services, "payments.refund"), async (c) => {
      const paymentId = c.req.param("paymentId");
      const form = await readForm(c);
      const result = await attempt(() =>
        refundFromForm(orgCtx(c), paymentId, (name) => field(form, name))
      );
      if (!result.ok) return renderRefundForm(services, c, paymentId, form, result.problem);
      return redirectWith(c, `/panel/payments/${paymentId}`, "refunded");
    })
    .post("/:paymentId/cancel", allow(services, "payments.refund"), async (c) => {
      const paymentId = c.req.param("paymentId");
      await cancelPayment(orgCtx(c), paymentId);
      return redirectWith(c, `/panel/payments/${paymentId}`, "canceled");
    })
    .post("/:paymentId/complete", allow(services, "developers"), async (c) => {
      const paymentId = c.req.param("paymentId");
      const form = await readForm(c);
      await completePayment(orgCtx(c), paymentId, field(form, "code"));
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
