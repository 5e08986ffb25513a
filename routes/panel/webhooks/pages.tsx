import type { WebhookEndpointRow } from "../../../db/schema.ts";
import type { Environment } from "../../../lib/config.ts";
import {
  Card,
  DateTime,
  EmptyState,
  Notice,
  PageHeader,
  StatusBadge,
} from "../../../components/panel/ui.tsx";
import type { Form, FormProblem } from "../kit/forms.ts";
import { EndpointForm } from "./endpoint_form.tsx";
import { endpointHref, WEBHOOKS_HREF } from "./href.ts";

/** The header that carries the signature, as the contract has the panel show it. */
export const SIGNATURE_HEADER = "webhook-signature";

/** Why an endpoint is off, by its `disabled_reason`. */
export const DISABLED_TEXT: Record<string, string> = {
  MANUAL: "disabled by you",
  GONE: "disabled: it answered 410 Gone",
  FAILING: "disabled: every attempt failed for 5 days",
};

/** Developers -> Webhooks: the organisation's endpoints and how deliveries are signed. */
export function WebhookListPage(props: {
  environment: Environment;
  endpoints: WebhookEndpointRow[];
  notice: string | null;
}) {
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Paystead POSTs signed events to these URLs in the ${props.environment}.`}
        actions={<a class="button button--primary" href={`${WEBHOOKS_HREF}/new`}>Add endpoint</a>}
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      <Card>
        {props.endpoints.length === 0
          ? (
            <EmptyState title="No endpoints yet">
              <p>
                Add your server's URL to hear about payments, refunds and subscriptions.
                {props.environment === "sandbox" && (
                  <>
                    {" "}No server yet? The <a href="/panel/developers/quickstart">Quick Start</a>
                    {" "}
                    sets up the sandbox's built-in inbox.
                  </>
                )}
              </p>
            </EmptyState>
          )
          : (
            <div class="table-wrap">
              <table class="table">
                <caption class="visually-hidden">Webhook endpoints</caption>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Events</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {props.endpoints.map((endpoint) => {
                    const events = JSON.parse(endpoint.event_types) as string[];
                    return (
                      <tr>
                        <td>
                          <a class="row-link mono" href={endpointHref(endpoint.public_id)}>
                            {endpoint.url}
                          </a>
                          {endpoint.description && (
                            <span class="muted small block">{endpoint.description}</span>
                          )}
                        </td>
                        <td>{events.includes("*") ? "All events" : events.join(", ")}</td>
                        <td>
                          {endpoint.enabled === 1
                            ? <StatusBadge status="ENABLED" label="Enabled" />
                            : (
                              <StatusBadge
                                status="DISABLED"
                                label={DISABLED_TEXT[endpoint.disabled_reason ?? "MANUAL"]}
                              />
                            )}
                        </td>
                        <td>
                          <DateTime at={endpoint.created_at} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
      </Card>
      <Card title="Verifying signatures">
        <p>
          Every delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and{" "}
          <code>{SIGNATURE_HEADER}</code>: <code>v1,</code> and the base64 HMAC-SHA256 of{" "}
          <code>{"{webhook-id}.{webhook-timestamp}.{body}"}</code>{" "}
          with the endpoint's secret (the bytes after{" "}
          <code>whsec_</code>, base64-decoded). During a secret rotation it carries two signatures,
          separated by a space.
        </p>
      </Card>
    </>
  );
}

/** Adding an endpoint, or editing `endpoint`, with what was entered and what was wrong. */
export function WebhookFormPage(props: {
  endpoint: WebhookEndpointRow | null;
  csrf: string;
  environment: Environment;
  values: Form;
  problem: FormProblem | null;
}) {
  const { endpoint } = props;
  return (
    <>
      <PageHeader
        title={endpoint ? "Edit endpoint" : "Add a webhook endpoint"}
        back={endpoint
          ? { href: endpointHref(endpoint.public_id), label: "Endpoint" }
          : { href: WEBHOOKS_HREF, label: "Webhooks" }}
      />
      <Card class="card--narrow">
        <EndpointForm
          csrf={props.csrf}
          action={endpoint ? endpointHref(endpoint.public_id) : WEBHOOKS_HREF}
          endpoint={endpoint}
          values={props.values}
          problem={props.problem}
          environment={props.environment}
        />
      </Card>
    </>
  );
}
