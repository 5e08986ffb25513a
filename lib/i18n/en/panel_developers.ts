/** Developers: the overview, the upgrade page and the payment provider's status. */
export const panelDevelopers = {
  "panel.dev.title": "Developers",
  "panel.dev.upgrade.eyebrow": "Plan BASIC or higher",
  "panel.dev.upgrade.title": "Connect your shop to Paystead",
  "panel.dev.upgrade.lead":
    "{org} is on the FREE plan: offers, QR codes and payments in the panel. With BASIC or higher you also get:",
  "panel.dev.upgrade.keys": "API keys for your server, in sandbox and production",
  "panel.dev.upgrade.webhooks": "Signed webhooks with a delivery log, resends and test events",
  "panel.dev.upgrade.checkout": "Embedded checkout on your own pages, with a live preview",
  "panel.dev.upgrade.quickstart": "The interactive Quick Start",
  "panel.dev.upgrade.quickstartOn": "The interactive Quick Start, on {plan}",
  "panel.dev.upgrade.reference": "The {reference} is open on every plan.",
  "panel.dev.upgrade.referenceLink": "API reference",
  "panel.dev.upgrade.free":
    "On FREE no webhook is delivered, to endpoints set up before a downgrade too, and deliveries that were waiting are canceled. Events are still recorded: after an upgrade, recover an endpoint's deliveries for that time with {call}.",
  "panel.dev.upgrade.plans":
    "Plans are set by whoever runs this Paystead installation: {command}. See {team}.",
  "panel.dev.upgrade.team": "Team and plan",
  "panel.dev.description.sandbox":
    "Everything your integration needs in the sandbox. The API host is {url}.",
  "panel.dev.description.production":
    "Everything your integration needs in production. The API host is {url}.",
  "panel.dev.tile.quickstart": "Quick Start",
  "panel.dev.tile.quickstartText":
    "Take a test payment end to end in the sandbox, step by step, with curl for each call.",
  "panel.dev.tile.keys": "API keys",
  "panel.dev.tile.keysText":
    "Create, roll and revoke the secret keys your server sends as Authorization: Bearer.",
  "panel.dev.tile.webhooks": "Webhooks",
  "panel.dev.tile.webhooksText":
    "Endpoints, signing secrets and every delivery attempt, with resend and test events.",
  "panel.dev.tile.checkout": "Checkout sessions",
  "panel.dev.tile.checkoutText":
    "Which of your sites may embed checkout, recent sessions and a live preview.",
  "panel.dev.tile.mailbox": "Sandbox mailbox",
  "panel.dev.tile.mailboxText":
    "The e-mails customers would receive (confirmations, refund notices), kept here instead of sent while there is no SMTP_URL.",
  "panel.dev.tile.reference": "API reference",
  "panel.dev.tile.referenceText":
    "Every operation with its parameters and responses, from this server's OpenAPI.",
  "panel.dev.goingLive": "Going live",
  "panel.dev.production": "Production",
  "panel.dev.separate":
    "Sandbox and production are separate: each has its own keys, offers, webhooks and checkout allowlist, and nothing is copied between them. When your sandbox integration works, create a production key and webhook endpoint in the production panel, and point your server at the production host.",
  "panel.provider.title": "Payment provider",
  "panel.provider.provider": "Provider",
  "panel.provider.account": "{provider}, POS {pos} at {url}",
  "panel.provider.sandbox": "The sandbox simulator: test codes, no money moves",
  "panel.provider.notifyUrl": "Notification URL",
  "panel.provider.lastCall": "Last successful call",
  "panel.provider.lastNotification": "Last notification",
  "panel.provider.never": "not since this process started",
} as const;
