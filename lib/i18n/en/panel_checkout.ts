/** Developers -> Checkout sessions: the allowlist, the live preview, the sessions. */
export const panelCheckout = {
  "panel.checkout.saved": "Allowlist saved. It applies to the next page load of every session.",
  "panel.checkout.title": "Checkout sessions",
  "panel.checkout.description":
    "Embedded checkout: an iframe on your page, for one session of an offer.",
  "panel.checkout.allowlist": "Where checkout may be embedded",
  "panel.checkout.allowlistText":
    "The checkout page sends {header} with the origin of the session's {embedLink}, which must be listed here; browsers refuse to show it on any other page. Removing an origin stops its open sessions from loading.",
  "panel.checkout.origins": "Allowed origins, one per line",
  "panel.checkout.originsSandbox":
    "scheme://host[:port], no path: https://shop.example. http:// only for localhost in the sandbox. At most 20.",
  "panel.checkout.originsProduction":
    "https://host[:port], no path: https://shop.example. At most 20.",
  "panel.checkout.save": "Save allowlist",
  "panel.checkout.preview": "Live preview",
  "panel.checkout.previewInSandbox": "Previews run in the sandbox, so no real money can move:",
  "panel.checkout.openSandbox": "open the sandbox's checkout page",
  "panel.checkout.noOffer": "No active offer to preview",
  "panel.checkout.createOffer": "Create an offer",
  "panel.checkout.first": " first.",
  "panel.checkout.previewText":
    "Opens a real sandbox session embedded right here, with the same embed.js your page uses, and shows the messages it sends. The panel's own origin ({origin}) is allowed for preview sessions only; your allowlist is unchanged.",
  "panel.checkout.offer": "Offer",
  "panel.checkout.openPreview": "Open preview",
  "panel.checkout.embed": "Embed it on your page",
  "panel.checkout.previewTitle": "Checkout preview",
  "panel.checkout.newPreview": "New preview session",
  "panel.checkout.session": "Session",
  "panel.checkout.expires": "expires",
  "panel.checkout.previewNote":
    "The session is real: it creates payments and sends events and webhooks like any other sandbox session, with {metadata} so your handler can tell.",
  "panel.checkout.filter": "Status",
  "panel.checkout.filter.all": "All",
  "panel.checkout.filter.OPEN": "Open",
  "panel.checkout.filter.COMPLETED": "Completed",
  "panel.checkout.filter.EXPIRED": "Expired",
  "panel.checkout.panelPreview": "panel preview",
  "panel.checkout.recent": "Recent sessions",
  "panel.checkout.none": "No sessions",
  "panel.checkout.noneText": "Your server creates them with {call}.",
  "panel.checkout.col.session": "Session",
  "panel.checkout.col.amount": "Amount",
  "panel.checkout.col.status": "Status",
  "panel.checkout.col.embeddedOn": "Embedded on",
  "panel.checkout.col.payment": "Payment",
  "panel.checkout.col.expires": "Expires",
  "panel.checkout.older": "Older sessions →",
} as const;
