/** Words a paying customer reads on the hosted page, the checkout iframe and their outcomes. */
export const customer = {
  // The link to the page in the other language, written in that language.
  "language.switch": "Polski",

  "page.hostedTitle": "Pay {merchant} · {item}",
  "page.checkoutTitle": "{item} – payment to {merchant}",
  "page.paymentSection": "Payment",

  "sandbox.label": "Sandbox",
  "sandbox.text": "Test mode: no real money moves.",
  "sandbox.region": "Test mode",
  "testCodes.title": "Sandbox test codes",
  "testCodes.code": "Code",
  "testCodes.result": "Result",
  "testCodes.other": "any other",
  "testCodes.succeeds": "Succeeds",
  "testCodes.fails": "Fails",
  "testCodes.waitsThenFails": "Waits, then fails",
  "securedBy": "Payments secured by Paystead",

  "summary.order": "Your order",
  "summary.item": "Item",
  "summary.amount": "Amount",
  "summary.total": "Total",
  "summary.quantity": "{quantity} × {unit}",

  "footer.seller": "Seller",
  "footer.taxId": "Tax ID (NIP): {taxId}",
  "footer.contact": "Contact",
  "footer.email": "Email",
  "footer.phone": "Phone",

  "code.heading": "Pay with BLIK",
  "code.hint": "Generate a 6-digit BLIK code in your banking app and enter it below.",
  "code.label": "BLIK code",
  "code.submit": "Pay {amount}",
  "code.invalid": "Enter the 6 digits of your BLIK code.",

  "details.emailLabel": "Email address (optional)",
  "details.emailHint": "We will send the payment confirmation there.",
  "details.emailInvalid":
    "Enter an email address such as name@example.com, or leave the field empty.",
  "details.emailLabelRequired": "Email address",
  "details.emailHintRenewal":
    "We will send the payment confirmation there, and a link to renew your subscription before each period ends.",
  "details.emailMissing":
    "Enter your email address: we will send the link to renew your subscription there.",
  "details.invoice": "I need an invoice",
  "details.companyName": "Company name",
  "details.taxId": "Tax ID (NIP)",
  "details.companyNameMissing": "Enter the company name for the invoice.",
  "details.taxIdInvalid": "Enter a valid NIP: 10 digits, as on the company's documents.",

  "wait.title": "Confirm the payment in your banking app",
  "wait.text":
    "Open your banking app and approve the BLIK payment of {amount} to {merchant}. Keep this page open.",
  "wait.countdown": "Time left to confirm: {time}",
  "wait.late": "Still waiting for your bank's answer…",

  "success.title": "Payment successful",
  "success.text": "{amount} paid to {merchant}.",
  "success.reference": "Payment ID: {paymentId}",
  "success.redirect": "Taking you back to {merchant}…",
  "success.continue": "Continue",
  "success.close": "You can close this page.",

  "failed.title": "Payment failed",
  "failed.nothingCharged": "Nothing was charged.",
  "failed.invalid_code":
    "That BLIK code wasn't recognised. Generate a new code in your banking app and try again.",
  "failed.declined":
    "Your bank declined the payment. Try again with a new code; if it happens again, contact your bank.",
  "failed.code_expired":
    "The BLIK code expired before it was used. A code is valid for 2 minutes: generate a new one and enter it straight away.",
  "failed.code_canceled":
    "The BLIK code was canceled in your banking app. Generate a new code to try again.",
  "failed.code_already_used":
    "That BLIK code has already been used. Generate a new code and try again.",
  "failed.timeout":
    "Your bank didn't confirm the payment in time. If you didn't approve it in your banking app, try again with a new code.",
  "failed.provider_unavailable":
    "We couldn't reach the payment service. Try again in a moment with a new code.",
  "failed.provider_rejected":
    "The payment service refused this payment. Try again with a new code, or contact the shop.",
  "failed.unknown": "The payment didn't go through. Try again with a new code.",
  "failed.retry": "Try again with a new code",
  "failed.noRetry": "This payment link can no longer be used. Ask {merchant} for a new one.",

  "locked.title": "Too many attempts",
  "locked.text":
    "For your security, code entry is paused. Try again in {minutes, plural, one {# minute} other {# minutes}}.",

  "expired.checkoutTitle": "This checkout has expired",
  "expired.checkoutText": "Nothing was charged. Go back to {merchant} to start again.",
  "expired.linkTitle": "This payment link has expired",
  "expired.linkText": "Nothing was charged. Ask {merchant} for a new payment link.",

  "canceled.title": "This payment was canceled",
  "canceled.text": "{merchant} canceled this payment. Nothing was charged.",

  "return.waitingTitle": "Waiting for your bank",
  "return.waitingText":
    "Your payment of {amount} to {merchant} is being confirmed. This page updates by itself.",
  "return.lateTitle": "Your bank hasn't confirmed yet",
  "return.lateText":
    "It can take a few minutes. You can close this page: {merchant} learns of the payment as soon as the bank confirms it.",
  "return.notPaidTitle": "The payment wasn't completed",
  "return.notPaidText": "Nothing was charged. You can choose another way to pay.",
  "return.chooseAgain": "Choose another way to pay",
  "return.failedText": "The payment was declined. Nothing was charged.",
  "return.tryAgain": "Try again",
  "return.check": "Check again",

  "sandboxBank.title": "Sandbox bank",
  "sandboxBank.text":
    "This page stands in for {place} in the sandbox: no real money moves. Payment of {amount} to {merchant}.",
  "sandboxBank.card": "the card payment page",
  "sandboxBank.google_pay": "the Google Pay page",
  "sandboxBank.apple_pay": "the Apple Pay page",
  "sandboxBank.pay": "Pay {amount}",
  "sandboxBank.decline": "Decline the payment",
  "sandboxBank.leave": "Back to the shop without paying",
  "sandboxBank.decided": "This test payment has already been decided.",
  "sandboxBank.canceled":
    "The shop has given this attempt up. Paying now is a bank that took the money before the cancellation arrived: Paystead refunds it in full.",

  "action.cancel": "Cancel",
  "action.back": "Return to {merchant}",

  "notice.offline": "We couldn't reach the payment service. Check your connection and try again.",
  "notice.stale": "This page is out of date. Reload it and try again.",
  "notice.serverError": "Something went wrong on our side. Please try again in a moment.",

  "offer.unavailableTitle": "This offer is no longer available",
  "offer.unavailableText":
    "{merchant} no longer sells “{offer}” through this code. Nothing was charged.",
  "embed.notAllowedTitle": "This checkout is not available here",
  "embed.notAllowedText":
    "{merchant} no longer allows this checkout on the page that opened it. Go back to the shop and start again.",
  "embed.notReady": "The payment form could not be loaded. Reload the page or try again later.",

  "error.reference": "Reference: {requestId}",
  "error.400.title": "Check what you entered",
  "error.400.text": "Something in the form wasn't right. Go back and try again.",
  "error.403.title": "This page is out of date",
  "error.403.text": "Go back, reload the page and try again.",
  "error.404.title": "We can't find this page",
  "error.404.text":
    "The link may be incomplete or out of date. Check it, or ask the shop for a new one.",
  "error.409.title": "This payment has already changed",
  "error.409.text": "Go back and reload the payment page to see where it stands.",
  "error.429.title": "Too many attempts",
  "error.429.text": "For your security, wait a few minutes before you try again.",
  "error.other.title": "Something went wrong",
  "error.other.text": "It wasn't anything you did. Please try again in a moment.",
} as const;
