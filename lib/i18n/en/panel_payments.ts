/** Payments, a payment's page, its refunds and subscriptions. */
export const panelPayments = {
  "panel.payments.refunded":
    "Refund created. It is PENDING until the payment method confirms, usually at once.",
  "panel.payments.completed": "The sandbox payment was attempted with the test code.",
  "panel.payments.canceled": "The payment was canceled.",
  "panel.payments.subscriptionCanceled": "The subscription is canceled.",
  "panel.payments.subscriptionScheduled": "The subscription ends when the paid period does.",
  "panel.paymentsTable.amount": "Amount",
  "panel.paymentsTable.status": "Status",
  "panel.paymentsTable.offer": "Offer and payment",
  "panel.paymentsTable.customer": "Customer",
  "panel.paymentsTable.created": "Created",
  "panel.paymentsTable.refunded": "{amount} refunded",
} as const;
