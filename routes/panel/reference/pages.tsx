import { EVENT_TYPES } from "../../../lib/events.ts";
import type { Reference } from "../../../lib/panel/reference.ts";
import { rich, useT } from "../../../components/panel/i18n.ts";
import { FieldsTable, Operation, Prose } from "./operation.tsx";

/** The API reference, from this server's OpenAPI document. */
export function ReferencePage(
  props: { reference: Reference; server: string; environment: string },
) {
  const { reference } = props;
  const tr = useT();
  const { t } = tr;
  return (
    <div class="ref">
      <nav class="ref__nav" aria-label={t("panel.ref.title")}>
        <p class="ref__nav-title">{t("panel.ref.onThisPage")}</p>
        <ul>
          <li>
            <a href="#introduction">{t("panel.ref.introduction")}</a>
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
            <a href="#webhook-events">{t("panel.ref.webhookEvents")}</a>
          </li>
          <li>
            <a href="#schemas">{t("panel.ref.schemas")}</a>
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
          <h2>{t("panel.ref.introduction")}</h2>
          <p>
            {rich(tr, "panel.ref.intro", {
              server: <code>{props.server}</code>,
              openapi: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>,
            })}
          </p>
          <h3>{t("panel.ref.authentication")}</h3>
          <p>
            {rich(tr, "panel.ref.authText", {
              header: <code>Authorization: Bearer sk_{props.environment}_…</code>,
              keys: <a href="/panel/developers/api-keys">{t("panel.ref.keysLink")}</a>,
            })}
          </p>
          <p>
            {rich(tr, "panel.ref.curlText", {
              key: <code>PAYSTEAD_KEY</code>,
              example: <code>QR_ID=qr_…</code>,
            })}
          </p>
          <h3>{t("panel.ref.errors")}</h3>
          <p>
            {rich(tr, "panel.ref.errorsText", {
              body: <code>{'{"error": {"type", "code", "message", "param"?, "requestId"}}'}</code>,
              requestId: <code>Request-Id</code>,
              param: <code>param</code>,
            })}
          </p>
          <h3>{t("panel.ref.idempotency")}</h3>
          <p>
            {rich(tr, "panel.ref.idempotencyText", {
              key: <code>Idempotency-Key</code>,
              replayed: <code>Idempotent-Replayed: true</code>,
              limit: <code>limit</code>,
              startingAfter: <code>startingAfter</code>,
              list: <code>{'{"data": [...], "hasMore"}'}</code>,
            })}
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
          <h2>{t("panel.ref.webhookEvents")}</h2>
          <p>
            {rich(tr, "panel.ref.eventsText", {
              event: <code>{'{"id", "type", "createdAt", "environment", "data"}'}</code>,
              data: <code>data</code>,
              id: <code>webhook-id</code>,
              timestamp: <code>webhook-timestamp</code>,
              signature: <code>webhook-signature</code>,
            })}
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
          <h2>{t("panel.ref.schemas")}</h2>
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
