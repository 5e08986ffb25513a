/** The API reference's own words (the operations' texts come from the OpenAPI document). */
export const panelReference = {
  "panel.ref.title": "API reference",
  "panel.ref.onThisPage": "On this page",
  "panel.ref.introduction": "Introduction",
  "panel.ref.webhookEvents": "Webhook events",
  "panel.ref.schemas": "Schemas",
  "panel.ref.intro":
    "Base URL of this environment: {server}. Requests and responses are JSON with camelCase fields; amounts are integers in minor units with an ISO 4217 currency. The machine-readable document is {openapi}.",
  "panel.ref.authentication": "Authentication",
  "panel.ref.authText":
    "Send a secret key of this environment as {header}. Create keys under {keys}. A key of the other environment gets 401 with the host to call; plan FREE gets 403.",
  "panel.ref.keysLink": "Developers → API keys",
  "panel.ref.curlText":
    "Each operation's curl reads the key from {key} and the ids in its path from shell variables such as {example}: set them to your ids first.",
  "panel.ref.errors": "Errors",
  "panel.ref.errorsText":
    "Every error is {body} with the same {requestId} header; {param} names the field at fault.",
  "panel.ref.idempotency": "Idempotency and lists",
  "panel.ref.idempotencyText":
    "Any POST accepts {key}: a retry within 24 hours gets the first answer again with {replayed}. Lists take {limit} (1–100) and {startingAfter} and answer {list}, newest first.",
  "panel.ref.eventsText":
    "POSTed to your endpoints as {event}, where {data} is the object as the API returns it. Each carries {id}, {timestamp} and {signature} (Standard Webhooks v1).",
  "panel.ref.field": "Field",
  "panel.ref.type": "Type",
  "panel.ref.description": "Description",
  "panel.ref.parameters": "Parameters",
  "panel.ref.parametersOf": "Parameters of {operation}",
  "panel.ref.name": "Name",
  "panel.ref.in": "In",
  "panel.ref.requestBody": "Request body",
  "panel.ref.responses": "Responses",
} as const;
