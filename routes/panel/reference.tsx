import { Hono } from "hono";
import type { ComponentChildren } from "preact";
import { CodeBlock } from "../../components/panel/ui.tsx";
import { EVENT_TYPES } from "../../lib/events.ts";
import { curlCommand } from "../../lib/panel/curl.ts";
import {
  buildReference,
  type Reference,
  type ReferenceField,
  type ReferenceOperation,
} from "../../lib/panel/reference.ts";
import { allow } from "./kit/access.ts";
import { type PanelDeps, type PanelEnv } from "./kit/context.ts";
import { renderPanel } from "./kit/render.tsx";

/** Text with `code` spans, as the API's descriptions write them. */
function withCode(text: string): ComponentChildren[] {
  return text.split(/(`[^`]+`)/).map((part, index) =>
    part.startsWith("`") && part.endsWith("`") && part.length > 2
      ? <code key={index}>{part.slice(1, -1)}</code>
      : part
  );
}

/** A paragraph of description. */
function Prose(props: { text: string | null }) {
  if (!props.text) return null;
  return <p class="ref__prose">{withCode(props.text)}</p>;
}

function TypeLink(props: { type: string; ref: string | null }) {
  if (!props.ref) return <span class="ref__type">{props.type}</span>;
  const [before, after] = props.type.split(props.ref);
  return (
    <span class="ref__type">
      {before}
      <a href={`#schema-${props.ref}`}>{props.ref}</a>
      {after}
    </span>
  );
}

function FieldsTable(props: { fields: ReferenceField[]; caption: string }) {
  return (
    <div class="table-wrap">
      <table class="table table--compact ref__fields">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {props.fields.map((field) => (
            <tr>
              <th scope="row">
                <code>{field.name}</code>
                {field.required && <span class="ref__required">required</span>}
              </th>
              <td>
                <TypeLink type={field.type} ref={field.ref} />
              </td>
              <td>
                {field.description && <Prose text={field.description} />}
                {field.constraints.length > 0 && (
                  <p class="ref__constraints">{field.constraints.join(" · ")}</p>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function curlOf(server: string, operation: ReferenceOperation): string {
  const method = operation.method as "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  return curlCommand(server, method, operation.path, operation.exampleBody ?? undefined);
}

function Operation(props: { operation: ReferenceOperation; server: string }) {
  const { operation } = props;
  return (
    <section class="ref__op" id={operation.id} aria-labelledby={`${operation.id}-title`}>
      <h3 class="ref__op-title" id={`${operation.id}-title`}>
        <a href={`#${operation.id}`} class="ref__anchor">{operation.summary}</a>
      </h3>
      <p class="ref__endpoint">
        <span class={`method method--${operation.method.toLowerCase()}`}>{operation.method}</span>
        <code>{operation.path}</code>
        <span class="ref__opid">{operation.id}</span>
      </p>
      <Prose text={operation.description} />
      {operation.parameters.length > 0 && (
        <>
          <h4>Parameters</h4>
          <div class="table-wrap">
            <table class="table table--compact ref__fields">
              <caption class="visually-hidden">Parameters of {operation.id}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">In</th>
                  <th scope="col">Type</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {operation.parameters.map((parameter) => (
                  <tr>
                    <th scope="row">
                      <code>{parameter.name}</code>
                      {parameter.required && <span class="ref__required">required</span>}
                    </th>
                    <td>{parameter.in}</td>
                    <td>
                      <span class="ref__type">{parameter.type}</span>
                    </td>
                    <td>
                      <Prose text={parameter.description} />
                      {parameter.constraints.length > 0 && (
                        <p class="ref__constraints">{parameter.constraints.join(" · ")}</p>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {operation.body && (
        <>
          <h4>
            Request body{" "}
            {operation.body.schema && (
              <a href={`#schema-${operation.body.schema}`}>{operation.body.schema}</a>
            )}
          </h4>
          <FieldsTable fields={operation.body.fields} caption={`Request body of ${operation.id}`} />
        </>
      )}
      <h4>Responses</h4>
      <ul class="ref__responses">
        {operation.responses.map((response) => (
          <li>
            <span class={`status-code status-code--${response.status.charAt(0)}xx`}>
              {response.status}
            </span>{" "}
            {response.schema && (
              <>
                {/^[A-Z]/.test(response.schema)
                  ? <a href={`#schema-${response.schema}`}>{response.schema}</a>
                  : <span class="ref__type">{response.schema}</span>}
                {response.contentType && response.contentType !== "application/json" && (
                  <span class="muted">({response.contentType})</span>
                )}
                {" · "}
              </>
            )}
            <span class="ref__response-text">{withCode(response.description)}</span>
          </li>
        ))}
      </ul>
      <CodeBlock id={`curl-${operation.id}`} label="curl" code={curlOf(props.server, operation)} />
    </section>
  );
}

function ReferencePage(props: { reference: Reference; server: string; environment: string }) {
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

/** The API reference, rendered by this process from its own OpenAPI document. */
export function createReferencePages(deps: PanelDeps): Hono<PanelEnv> {
  const { services } = deps;
  let reference: Reference | undefined;
  return new Hono<PanelEnv>().get(
    "/panel/reference",
    allow(services, "reference.view"),
    (c) => {
      const built = reference ??= buildReference(deps.openApi());
      return renderPanel(services, c, {
        title: "API reference",
        current: "reference",
        body: (
          <ReferencePage
            reference={built}
            server={built.server ?? services.config.publicUrl}
            environment={services.environment}
          />
        ),
      });
    },
  );
}
