import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { can } from "../../../lib/accounts/access.ts";
import { loadPaymentView } from "../../../lib/panel/payments.ts";
import { orgCtx, type PanelContext, subjectOf, translatorOf } from "../kit/context.ts";
import { type Form, type FormProblem, noticeOf } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { type PaymentActions, PaymentDetailPage } from "./pages.tsx";
import type { RefundStep } from "./refunds_card.tsx";

/** What an action's redirect may ask a payment's page to say. */
const NOTICES = {
  refunded: "panel.payments.refunded",
  completed: "panel.payments.completed",
  canceled: "panel.payments.canceled",
  "subscription-canceled": "panel.payments.subscriptionCanceled",
  "subscription-scheduled": "panel.payments.subscriptionScheduled",
  "email-resent": "panel.payments.emailResent",
} as const;

/** The refund form as a payment's page first shows it. */
export const BLANK_REFUND: RefundStep = { kind: "form", values: {}, problem: null };

function actionsOf(services: Services, c: PanelContext): PaymentActions {
  const subject = subjectOf(c.get("session"));
  const access = services.config.quickstartAccess;
  return {
    refund: can("payments.refund", subject, access),
    resendEmail: can("payments.email", subject, access),
    simulate: services.environment === "sandbox" && can("developers", subject, access),
    cancelSubscription: can("subscriptions.cancel", subject, access),
  };
}

/** A payment's page, its refund form at `refund`. */
export async function renderPayment(
  services: Services,
  c: PanelContext,
  paymentId: string,
  refund: RefundStep,
  status = 200,
): Promise<Response> {
  const view = await loadPaymentView(orgCtx(c), paymentId, services.config.publicUrl);
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.payments.paymentTitle", { id: view.detail.payment.public_id }),
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
export function renderRefundForm(
  services: Services,
  c: PanelContext,
  paymentId: string,
  values: Form,
  problem: FormProblem,
): Promise<Response> {
  return renderPayment(services, c, paymentId, { kind: "form", values, problem }, problem.status);
}
