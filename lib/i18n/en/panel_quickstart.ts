/**
 * The Quick Start. Its island gets these words resolved on the server; a `[name]` in one is a
 * piece of code or a link the island puts in (ICU leaves square brackets alone).
 */
export const panelQuickstart = {
  "panel.qs.step": "Step [number]:",
  "panel.qs.stepDone": "Step [number] (done):",
  "panel.qs.running": "Running…",
  "panel.qs.runAgain": "Run again",
  "panel.qs.run": "Run",
  "panel.qs.response": "Response · [status]",
  "panel.qs.sample": "Sample response · [status]",
  "panel.qs.requestBody": "Request body",
  "panel.qs.copy": "Copy",
  "panel.qs.copied": "Copied",
  "panel.qs.select": "Press Ctrl+C",
  "panel.qs.shell": "Shell",
  "panel.qs.noKeyYet":
    "Set PAYSTEAD_KEY to a sandbox key first: run step 1, or use a key you stored.",
  "panel.qs.needOffer": "Create the offer in step 2 first.",
  "panel.qs.key.title": "Get a sandbox API key",
  "panel.qs.key.run": "Create key",
  "panel.qs.key.text":
    "Every API call carries a secret key as [auth]. Sandbox keys start with [prefix] and only work on the sandbox host.",
  "panel.qs.key.once": "Your new key, shown only now. Store it in your secrets manager or [env].",
  "panel.qs.key.ref": "API reference: list offers",
  "panel.qs.key.manage": "Manage API keys",
  "panel.qs.offer.title": "Create an offer",
  "panel.qs.offer.text":
    "An offer is what customers pay for, named by its [qrId]. Amounts are in minor units: [amount] is 12.50.",
  "panel.qs.offer.ref": "API reference: create an offer",
  "panel.qs.webhook.title": "Receive webhooks",
  "panel.qs.webhook.setUp": "Set up",
  "panel.qs.webhook.check": "Check it",
  "panel.qs.webhook.text":
    "Paystead tells your server what happened with signed POSTs. You don't need a public URL yet: the sandbox has a built-in inbox that receives them like your server would, checks the [signature] header and shows what arrived. Later, register your own URL under [webhooks].",
  "panel.qs.webhook.webhooks": "Webhooks",
  "panel.qs.webhook.ref": "API reference: create a webhook endpoint",
  "panel.qs.webhook.log": "Signing secret and delivery log",
  "panel.qs.payment.title": "Take a payment",
  "panel.qs.payment.text":
    "A hosted payment link: send the customer to [paymentUrl] (or show the offer's QR code), where they enter a 6-digit code from their banking app.",
  "panel.qs.payment.ref": "API reference: create a hosted payment link",
  "panel.qs.payment.open": "Open the hosted payment page",
  "panel.qs.checkout.title": "Embed a checkout session",
  "panel.qs.checkout.text":
    "For checkout inside your own page: your server creates a session and your page loads its [embedUrl] with [embedJs]. [embedLink] must be on an origin of your [allowlist]. Here it is the panel's preview page, so you can see the session embedded: running this step puts [origin] on your allowlist (in a terminal, the PUT above the session's curl does), and the curl works as shown. Your shop's own origin goes there later.",
  "panel.qs.checkout.allowlist": "allowlist",
  "panel.qs.checkout.ref": "API reference: create a checkout session",
  "panel.qs.checkout.see": "See it embedded",
  "panel.qs.complete.title": "Complete it with the test code [code]",
  "panel.qs.complete.blocked": "Create the checkout session in step 5 first.",
  "panel.qs.complete.text":
    "In the sandbox, codes starting with [succeeds] succeed and [declined] is declined. The complete operation does what a customer does in the checkout: one payment attempt with the code.",
  "panel.qs.complete.ref": "API reference: pay a checkout session with a test code",
  "panel.qs.complete.payment": "The payment in the panel",
  "panel.qs.watch.title": "Watch the webhook arrive",
  "panel.qs.watch.watching": "Watching…",
  "panel.qs.watch.watch": "Watch",
  "panel.qs.watch.blocked": "Set up the receiver in step 3 first.",
  "panel.qs.watch.text":
    "The session's payment and its completion ([succeeded], [completed], ...) are delivered to the inbox, each attempt logged with its status code and latency. Your server would confirm the order on [completed].",
  "panel.qs.watch.nothing": "Nothing watched yet.",
  "panel.qs.watch.log": "Delivery log",
  "panel.qs.watch.noDeliveries": "No deliveries yet.",
  "panel.qs.watch.inbox": "Received by the inbox",
  "panel.qs.watch.nothingReceived": "Nothing received yet.",
  "panel.qs.watch.notEvent": "(not an event)",
  "panel.qs.watch.verified": "signature verified",
  "panel.qs.watch.notVerified": "not verified",
  "panel.qs.watch.done":
    "checkout.session.completed reached the inbox with a valid signature. That is the whole cycle: key, offer, payment, checkout, webhook. Next, point a webhook at your own server and verify signatures there.",
  "panel.qs.watch.ref": "API reference: list an event's deliveries",
  "panel.qs.watch.fullLog": "Full delivery log",
  "panel.qs.status.pending": "pending",
  "panel.qs.status.succeeded": "succeeded",
  "panel.qs.status.failed": "failed",
  "panel.qs.status.canceled": "canceled",
} as const;

/** The Quick Start page around its island. */
export const panelQuickstartPage = {
  "panel.qs.page.title": "Quick Start",
  "panel.qs.page.description":
    "Take a payment end to end in the sandbox of {org}. Each step runs for real; the curl next to it does the same from your terminal against {baseUrl}. Pasted in order into one shell, the curls keep the ids later steps need in shell variables (with jq).",
  "panel.qs.page.elsewhere":
    "The Quick Start takes test payments, so it runs in the sandbox, where no real money moves.",
  "panel.qs.page.open": "Open it in the sandbox",
} as const;
