import type { ComponentChildren } from "preact";
import { useT } from "../../../components/panel/i18n.ts";
import { CodeBlock, TableWrap } from "../../../components/panel/ui.tsx";
import { curlCommand, curlUploadCommand } from "../../../lib/panel/curl.ts";
import type { ReferenceField, ReferenceOperation } from "../../../lib/panel/reference.ts";

/** Text with `code` spans, as the API's descriptions write them. */
function withCode(text: string): ComponentChildren[] {
  return text.split(/(`[^`]+`)/).map((part, index) =>
    part.startsWith("`") && part.endsWith("`") && part.length > 2
      ? <code key={index}>{part.slice(1, -1)}</code>
      : part
  );
}

/** A paragraph of description. */
export function Prose(props: { text: string | null }) {
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

/** The fields of a schema or request body. */
export function FieldsTable(props: { fields: ReferenceField[]; caption: string }) {
  const { t } = useT();
  return (
    <TableWrap label={props.caption}>
      <table class="table table--compact ref__fields">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("panel.ref.field")}</th>
            <th scope="col">{t("panel.ref.type")}</th>
            <th scope="col">{t("panel.ref.description")}</th>
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
    </TableWrap>
  );
}

function curlOf(server: string, operation: ReferenceOperation): string {
  const method = operation.method as "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  if (operation.uploadType) {
    return curlUploadCommand(server, operation.curlPath, operation.uploadType);
  }
  const curl = curlCommand(server, method, operation.curlPath, operation.exampleBody ?? undefined);
  // A stream's events show as they come only unbuffered (-N): curl holds its output otherwise.
  const streams = operation.responses.some((response) =>
    response.contentType === "text/event-stream"
  );
  return streams ? curl.replace(/^curl /, "curl -N ") : curl;
}

/** One operation: its endpoint, parameters, request body, responses and curl. */
export function Operation(props: { operation: ReferenceOperation; server: string }) {
  const { operation } = props;
  const { t } = useT();
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
          <h4>{t("panel.ref.parameters")}</h4>
          <TableWrap label={t("panel.ref.parametersOf", { operation: operation.id })}>
            <table class="table table--compact ref__fields">
              <caption class="visually-hidden">Parameters of {operation.id}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("panel.ref.name")}</th>
                  <th scope="col">{t("panel.ref.in")}</th>
                  <th scope="col">{t("panel.ref.type")}</th>
                  <th scope="col">{t("panel.ref.description")}</th>
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
          </TableWrap>
        </>
      )}
      {operation.body && (
        <>
          <h4>
            {t("panel.ref.requestBody")}{" "}
            {operation.body.schema && (
              <a href={`#schema-${operation.body.schema}`}>{operation.body.schema}</a>
            )}
          </h4>
          <FieldsTable fields={operation.body.fields} caption={`Request body of ${operation.id}`} />
        </>
      )}
      <h4>{t("panel.ref.responses")}</h4>
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
