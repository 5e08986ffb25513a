/** Developers -> Copy configuration. */
export const panelConfig = {
  "panel.config.title": "Copy configuration",
  "panel.config.description":
    "Move offers, webhook endpoints and checkout settings between sandbox and production, deliberately.",
  "panel.config.download.sandbox": "Download this sandbox configuration",
  "panel.config.download.production": "Download this production configuration",
  "panel.config.downloadText":
    "A file with your offers, webhook endpoints (never their signing secrets) and the origins allowed to embed checkout. API keys are never in it. Keep it private: it names your endpoints.",
  "panel.config.downloadButton": "Download configuration",
  "panel.config.import.sandbox": "Import a file from sandbox",
  "panel.config.import.production": "Import a file from production",
  "panel.config.file": "Configuration file",
  "panel.config.fileHint": "You will see what it creates and changes before anything is written.",
  "panel.config.show": "Show the changes",
  "panel.config.reviewTitle": "Review the import",
  "panel.config.reviewDescription": "From ''{org}'' in {environment}, exported {at}.",
  "panel.config.nothing": "Nothing to change",
  "panel.config.willDo": "This import will",
  "panel.config.unchanged": "{count} already match.",
  "panel.config.back": "Back",
  "panel.config.importedTitle": "Configuration imported",
  "panel.config.nothingChanged": "Nothing changed: the configuration was already imported.",
  "panel.config.imported": "{count, plural, one {Imported # change.} other {Imported # changes.}}",
  "panel.config.newEndpoint": "New webhook endpoint {url}",
  "panel.config.secret": "Signing secret: shown this once, put it in your receiver now",
  "panel.config.offers": "Offers: qrId there and here",
  "panel.config.offer": "Offer",
  "panel.config.there": "qrId there",
  "panel.config.here": "qrId here",
  "panel.config.backTo": "Back to Copy configuration",
  "panel.config.item.offerCreate":
    "create offer ''{name}'' ({price}{inactive, select, yes {, inactive} other {}}) for {qrId}",
  "panel.config.item.recurringPrice": "{amount} every {count} {interval}",
  "panel.config.item.offerChange": "change offer ''{name}'' {targetId} (from {qrId}): {fields}",
  "panel.config.item.endpointCreate":
    "create webhook endpoint {url} ({events}{disabled, select, yes {, disabled} other {}}) with a new signing secret",
  "panel.config.item.endpointChange":
    "change webhook endpoint {targetId} (from {sourceId}): {fields}",
  "panel.config.item.checkout": "set checkout allowed origins to {to} (was {from})",
  "panel.config.item.none": "none",
  "panel.config.include": "Import this",
  "panel.config.refused": "Left out: {environment} refuses it. {reason}",
  "panel.config.chooseHint":
    "Untick what you do not want here, such as test offers or webhooks to your own computer.",
  "panel.config.leftOut": "Left out",
  "panel.config.applySelected": "Import the ticked changes",
} as const;
