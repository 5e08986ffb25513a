/** Payments, a payment's page, its refunds and subscriptions. */
export const panelPayments = {
  "panel.payments.refunded":
    "Refund created. It is PENDING until the payment method confirms, usually at once.",
  "panel.payments.completed": "The sandbox payment was attempted with the test code.",
  "panel.payments.canceled": "The payment was canceled.",
  "panel.payments.subscriptionCanceled": "The subscription is canceled.",
  "panel.payments.subscriptionScheduled": "The subscription ends when the paid period does.",
} as const;
