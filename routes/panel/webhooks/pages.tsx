import type { WebhookEndpointRow } from "../../../db/schema.ts";
import type { Environment } from "../../../lib/config.ts";
import { rich, useT } from "../../../components/panel/i18n.ts";
import type { Translator } from "../../../lib/i18n/mod.ts";
import {
  Card,
  DateTime,
  EmptyState,
  Notice,
  PageHeader,
  StatusBadge,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import type { Form, FormProblem } from "../kit/forms.ts";
import { EndpointForm } from "./endpoint_form.tsx";
import { endpointHref, WEBHOOKS_HREF } from "./href.ts";

/** The header that carries the signature, as the contract has the panel show it. */
export const SIGNATURE_HEADER = "webhook-signature";

/** Why an endpoint is off, by its `disabled_reason`. */
export function disabledText(tr: Translator, reason: string | null): string {
  const known = reason === "GONE" || reason === "FAILING" ? reason : "MANUAL";
  return tr.t(`panel.webhooks.disabled.${known}`);
}

/** The events an endpoint receives, as the panel lists them. */
export function eventsText(tr: Translator, events: string[]): string {
  return events.includes("*") ? tr.t("panel.webhooks.allEvents") : events.join(", ");
}

/** Developers -> Webhooks: the organisation's endpoints and how deliveries are signed. */
export function WebhookListPage(props: {
  environment: Environment;
  endpoints: WebhookEndpointRow[];
  notice: string | null;
}) {
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader
        title={t("panel.webhooks.title")}
        description={t("panel.webhooks.description", {
          environment: t(`panel.webhooks.env.${props.environment}`),
        })}
        actions={
          <a class="button button--primary" href={`${WEBHOOKS_HREF}/new`}>
            {t("panel.webhooks.add")}
          </a>
        }
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      <Card>
        {props.endpoints.length === 0
          ? (
            <EmptyState title={t("panel.webhooks.none")}>
              <p>
                {t("panel.webhooks.noneText")}
                {props.environment === "sandbox" && (
                  <>
                    {" "}
                    {rich(tr, "panel.webhooks.noServer", {
                      quickstart: (
                        <a href="/panel/developers/quickstart">{t("panel.webhooks.quickstart")}</a>
                      ),
                    })}
                  </>
                )}
              </p>
            </EmptyState>
          )
          : (
            <TableWrap label={t("panel.webhooks.caption")}>
              <table class="table">
                <caption class="visually-hidden">{t("panel.webhooks.caption")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("panel.webhooks.col.url")}</th>
                    <th scope="col">{t("panel.webhooks.col.events")}</th>
                    <th scope="col">{t("panel.webhooks.col.status")}</th>
                    <th scope="col">{t("panel.webhooks.col.created")}</th>
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
                        <td>{eventsText(tr, events)}</td>
                        <td>
                          {endpoint.enabled === 1
                            ? <StatusBadge status="ENABLED" label={t("panel.webhooks.enabled")} />
                            : (
                              <StatusBadge
                                status="DISABLED"
                                label={disabledText(tr, endpoint.disabled_reason)}
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
            </TableWrap>
          )}
      </Card>
      <Card title={t("panel.webhooks.verifying")}>
        <p>
          {rich(tr, "panel.webhooks.verifyingText", {
            header: <code>{SIGNATURE_HEADER}</code>,
            signed: <code>{"{webhook-id}.{webhook-timestamp}.{body}"}</code>,
          })}
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
  const { t } = useT();
  return (
    <>
      <PageHeader
        title={t(endpoint ? "panel.webhooks.editTitle" : "panel.webhooks.addHeading")}
        back={endpoint
          ? { href: endpointHref(endpoint.public_id), label: t("panel.webhooks.endpoint") }
          : { href: WEBHOOKS_HREF, label: t("panel.webhooks.title") }}
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
