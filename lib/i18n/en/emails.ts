/** Words of the e-mails a customer is sent (confirmations, refund notices, renewal links). */
export const emails = {
  "email.confirmation.subject": "Payment confirmation – {shop}",
  "email.confirmation.heading": "Thank you for your purchase",
  "email.confirmation.intro":
    "We have received your BLIK payment of {amount}. Please keep this e-mail: it confirms your purchase.",
  "email.refund.subject": "Refund – {shop}",
  "email.refund.heading": "Your refund",
  "email.refund.intro":
    "We have refunded {amount} of your payment of {date}. The money goes back to the bank account you paid from with BLIK, usually within a few business days.",
  "email.refund.details": "Refund details",
  "email.refund.amount": "Amount refunded",
  "email.refund.refundId": "Refund ID",
  "email.order.heading": "Your order",
  "email.order.items": "{count, plural, one {# item} other {# items}}",
  "email.order.line": "{name} – {quantity, plural, one {# pc.} other {# pcs.}} × {unitAmount}",
  "email.order.total": "Total",
  "email.details.heading": "Payment details",
  "email.details.date": "Date",
  "email.details.paymentId": "Payment ID",
  "email.details.method": "Payment method: BLIK",
  "email.invoice.heading": "Invoice",
  "email.invoice.requested":
    "You asked for an invoice for {companyName}, tax ID (NIP) {taxId}. The seller issues it and sends it separately.",
  "email.seller.heading": "Seller",
  "email.seller.taxId": "Tax ID (NIP): {taxId}",
  "email.seller.contact": "Questions? Write to us: {email}",
  "email.seller.contactWithPhone": "Questions? Write to us: {email} or call: {phone}",
  "email.footer.reply": "You can reply to this e-mail: your reply goes to the seller.",
  "email.footer.sentBy": "Sent on behalf of {shop} by Paystead, which processed the payment.",
  "email.renewal.notice.subject": "Renew your subscription – {shop}",
  "email.renewal.notice.heading": "Your subscription ends on {date}",
  "email.renewal.notice.intro":
    "To keep {offer}, pay {amount} for the next period with BLIK. It takes a minute: open the link and enter the code from your banking app.",
  "email.renewal.reminder.subject": "Reminder: renew your subscription – {shop}",
  "email.renewal.reminder.heading": "Your subscription is waiting for payment",
  "email.renewal.reminder.intro":
    "The period you paid for ended on {date}. Pay {amount} with BLIK by {deadline} to keep {offer}; after that the subscription is canceled.",
  "email.renewal.action": "Pay now",
  "email.renewal.details": "Renewal",
  "email.renewal.period": "Next period: {start} – {end}",
  "email.renewal.deadline": "Pay by",
} as const;
