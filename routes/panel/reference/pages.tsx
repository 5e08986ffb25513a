import { EVENT_TYPES } from "../../../lib/events.ts";
import type { Reference } from "../../../lib/panel/reference.ts";
import { FieldsTable, Operation, Prose } from "./operation.tsx";

/** The API reference, from this server's OpenAPI document. */
export function ReferencePage(
  props: { reference: Reference; server: string; environment: string },
) {
  const { reference } = props;
  return (
    <div class="ref">
      <nav class="ref__nav" aria-label="API reference">
        <p class="ref__nav-title">On this page</p>
        <ul>
          <li>
            <a href="#introduction">Introduction</a>
          </li>
          {reference.groups.map((group) => (
            <li>
              <a href={`#tag-${group.tag}`}>{group.tag}</a>
              <ul>
                {group.operations.map((operation) => (
                  <li>
                    <a href={`#${operation.id}`}>
                      <span class={`method method--tiny method--${operation.method.toLowerCase()}`}>
                        {operation.method}
                      </span>{" "}
                      {operation.summary}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          <li>
            <a href="#webhook-events">Webhook events</a>
          </li>
          <li>
            <a href="#schemas">Schemas</a>
          </li>
        </ul>
      </nav>
      <div class="ref__main">
        <header class="page-header">
          <h1>
            {reference.title} <span class="muted">v{reference.version}</span>
          </h1>
          <Prose text={reference.description} />
        </header>
        <section id="introduction" class="ref__intro card">
          <h2>Introduction</h2>
          <p>
            Base URL of this environment:{" "}
            <code>{props.server}</code>. Requests and responses are JSON with camelCase fields;
            amounts are integers in minor units with an ISO 4217 currency. The machine-readable
            document is <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
          </p>
          <h3>Authentication</h3>
          <p>
            Send a secret key of this environment as{" "}
            <code>Authorization: Bearer sk_{props.environment}_…</code>
            . Create keys under{" "}
            <a href="/panel/developers/api-keys">Developers → API keys</a>. A key of the other
            environment gets 401 with the host to call; plan FREE gets 403.
          </p>
          <h3>Errors</h3>
          <p>
            Every error is{" "}
            <code>{'{"error": {"type", "code", "message", "param"?, "requestId"}}'}</code>{" "}
            with the same <code>Request-Id</code> header; <code>param</code>{" "}
            names the field at fault.
          </p>
          <h3>Idempotency and lists</h3>
          <p>
            Any POST accepts{" "}
            <code>Idempotency-Key</code>: a retry within 24 hours gets the first answer again with
            {" "}
            <code>Idempotent-Replayed: true</code>. Lists take <code>limit</code> (1–100) and{" "}
            <code>startingAfter</code> and answer{" "}
            <code>{'{"data": [...], "hasMore"}'}</code>, newest first.
          </p>
        </section>
        {reference.groups.map((group) => (
          <section id={`tag-${group.tag}`} class="ref__group">
            <h2>{group.tag}</h2>
            {group.operations.map((operation) => (
              <Operation operation={operation} server={props.server} />
            ))}
          </section>
        ))}
        <section id="webhook-events" class="ref__group">
          <h2>Webhook events</h2>
          <p>
            POSTed to your endpoints as{" "}
            <code>{'{"id", "type", "createdAt", "environment", "data"}'}</code>, where{" "}
            <code>data</code> is the object as the API returns it. Each carries{" "}
            <code>webhook-id</code>, <code>webhook-timestamp</code> and{" "}
            <code>webhook-signature</code> (Standard Webhooks v1).
          </p>
          <ul class="ref__events">
            {EVENT_TYPES.map((type) => (
              <li>
                <code>{type}</code>
              </li>
            ))}
          </ul>
        </section>
        <section id="schemas" class="ref__group">
          <h2>Schemas</h2>
          {reference.schemas.map((schema) => (
            <section id={`schema-${schema.name}`} class="ref__schema">
              <h3>
                <a href={`#schema-${schema.name}`} class="ref__anchor">{schema.name}</a>
              </h3>
              <Prose text={schema.description} />
              {schema.fields.length > 0 && (
                <FieldsTable fields={schema.fields} caption={schema.name} />
              )}
            </section>
          ))}
        </section>
      </div>
    </div>
  );
}
