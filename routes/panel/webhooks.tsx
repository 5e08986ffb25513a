import { Hono } from "hono";
import {
  Card,
  CodeBlock,
  ConfirmAction,
  CsrfField,
  DateTime,
  EmptyState,
  Fact,
  Facts,
  Field,
  FormError,
  Id,
  Notice,
  OnceValue,
  PageHeader,
  StatusBadge,
} from "../../components/panel/ui.tsx";
import type { WebhookEndpointRow } from "../../db/schema.ts";
import type { Services } from "../../lib/context.ts";
import { ApiError } from "../../lib/errors.ts";
import { parseRequest } from "../../lib/panel/forms.ts";
import { toIso } from "../../lib/clock.ts";
import { resendEvent } from "../../lib/webhooks/deliveries.ts";
import { recoverEvents, RecoverEventsRequest } from "../../lib/webhooks/recovery.ts";
import {
  listEndpointDeliveries,
  type LoggedWebhookDelivery,
} from "../../lib/webhooks/delivery_log.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  revealWebhookEndpointSecret,
  rotateWebhookEndpointSecret,
  sendTestWebhook,
  toWebhookEndpoint,
  updateWebhookEndpoint,
} from "../../lib/webhooks/endpoints.ts";
import {
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
} from "../../lib/webhooks/schemas.ts";
import { SUBSCRIBABLE_EVENT_TYPES } from "../../lib/webhooks/subscriptions.ts";
import { orgCtx, type PanelContext, type PanelEnv } from "./kit/context.ts";
import {
  attempt,
  field,
  fields,
  type Form,
  type FormProblem,
  noticeOf,
  problemFor,
  problemOfForm,
  readForm,
  redirectWith,
} from "./kit/forms.ts";
import { renderPanel } from "./kit/render.tsx";
import { isIsoTime, RecoverEventsForm } from "./webhook_recover.tsx";

/** The header that carries the signature, as the contract has the panel show it. */
export const SIGNATURE_HEADER = "webhook-signature";

const FAMILIES = [
  ...new Set(SUBSCRIBABLE_EVENT_TYPES.map((type) => type.split(".").slice(0, -1).join("."))),
];

const NOTICES = {
  created: "Endpoint added. Send a test event to check your handler.",
  saved: "Changes saved.",
  enabled: "Endpoint enabled: it receives events recorded from now on. Recover the events of " +
    "the time it was off below.",
  recovered: "Events queued again; their deliveries appear in the log marked recovery.",
  disabled: "Endpoint disabled: nothing is sent to it and pending deliveries were canceled.",
  deleted: "Endpoint deleted.",
  test: "webhook.test is on its way; its delivery appears below in a moment.",
  resent: "Delivery queued again. The receiver sees the same webhook-id as before.",
} as const;

const DISABLED_TEXT: Record<string, string> = {
  MANUAL: "disabled by you",
  GONE: "disabled: it answered 410 Gone",
  FAILING: "disabled: every attempt failed for 5 days",
};

function verificationSnippet(): string {
  return `// npm install standardwebhooks   (Standard Webhooks v1: Paystead's signature scheme)
import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.PAYSTEAD_WEBHOOK_SECRET); // whsec_...

export async function handlePaysteadWebhook(request) {
  const body = await request.text(); // the raw body, exactly as received
  let event;
  try {
    // Checks ${SIGNATURE_HEADER} against webhook-id, webhook-timestamp and the body,
    // and refuses timestamps more than 5 minutes off (replays).
    event = webhook.verify(body, Object.fromEntries(request.headers));
  } catch {
    return new Response("invalid signature", { status: 400 });
  }
  // event.id repeats on retries: skip ids you have already handled.
  await queue.push(event); // do the work later; answer within 15 s
  return new Response(null, { status: 204 });
}`;
}

function EventsPicker(props: { selected: string[]; problem: FormProblem | null }) {
  const all = props.selected.length === 0 || props.selected.includes("*");
  return (
    <fieldset class="fieldset">
      <legend>Events</legend>
      <label class="check">
        <input type="radio" name="scope" value="all" checked={all} />
        <span>All events</span>
      </label>
      <label class="check">
        <input type="radio" name="scope" value="some" checked={!all} />
        <span>Only the events ticked below</span>
      </label>
      <div class="events-grid">
        {FAMILIES.map((family) => (
          <div class="events-grid__family">
            <label class="check check--strong">
              <input
                type="checkbox"
                name="events"
                value={`${family}.*`}
                checked={props.selected.includes(`${family}.*`)}
              />
              <span>
                <code>{family}.*</code>
              </span>
            </label>
            {SUBSCRIBABLE_EVENT_TYPES.filter((type) =>
              type.startsWith(`${family}.`) &&
              type.split(".").length === family.split(".").length + 1
            )
              .map((type) => (
                <label class="check">
                  <input
                    type="checkbox"
                    name="events"
                    value={type}
                    checked={props.selected.includes(type)}
                  />
                  <span>
                    <code>{type}</code>
                  </span>
                </label>
              ))}
          </div>
        ))}
      </div>
      {problemFor(props.problem, "events") && (
        <p class="field__error">{problemFor(props.problem, "events")}</p>
      )}
    </fieldset>
  );
}

function EndpointForm(props: {
  csrf: string;
  action: string;
  endpoint: WebhookEndpointRow | null;
  values: Form;
  problem: FormProblem | null;
  environment: string;
}) {
  const { endpoint, values, problem } = props;
  const text = (name: string, fallback: string) =>
    typeof values[name] === "string" ? values[name] as string : fallback;
  const selected = values.scope !== undefined
    ? (field(values, "scope") === "all" ? ["*"] : fields(values, "events"))
    : endpoint
    ? JSON.parse(endpoint.event_types) as string[]
    : ["*"];
  return (
    <form method="post" action={props.action} class="form" data-once>
      <CsrfField token={props.csrf} />
      <FormError message={problemOfForm(problem, ["url", "description", "events"])} />
      <Field
        name="url"
        label="Endpoint URL"
        hint={props.environment === "production"
          ? "https:// on a public address."
          : "Any http(s) URL your sandbox can reach, localhost included."}
        error={problemFor(problem, "url")}
      >
        {(attrs) => (
          <input
            {...attrs}
            type="url"
            required
            maxLength={2048}
            placeholder="https://shop.example/webhooks/paystead"
            value={text("url", endpoint?.url ?? "")}
          />
        )}
      </Field>
      <Field
        name="description"
        label="Description (optional)"
        error={problemFor(problem, "description")}
      >
        {(attrs) => (
          <input
            {...attrs}
            type="text"
            maxLength={500}
            value={text("description", endpoint?.description ?? "")}
          />
        )}
      </Field>
      <EventsPicker selected={selected} problem={problem} />
      <div class="form__actions">
        <button type="submit" class="button button--primary">
          {endpoint ? "Save changes" : "Add endpoint"}
        </button>
        <a
          class="button button--secondary"
          href={endpoint
            ? `/panel/developers/webhooks/${endpoint.public_id}`
            : "/panel/developers/webhooks"}
        >
          Cancel
        </a>
      </div>
    </form>
  );
}

function eventsFromForm(form: Form): string[] {
  if (field(form, "scope") !== "some") return ["*"];
  const events = fields(form, "events");
  if (events.length === 0) {
    throw new ApiError("parameter_invalid", "Tick at least one event, or choose all events.", {
      param: "events",
    });
  }
  return events;
}

function DeliveryLog(props: {
  deliveries: LoggedWebhookDelivery[];
  endpoint: WebhookEndpointRow;
  csrf: string;
  next: string | null;
}) {
  const { deliveries, endpoint } = props;
  if (deliveries.length === 0) {
    return (
      <EmptyState title="No deliveries yet">
        <p>Events recorded from now on are delivered here. Send a test event to try it.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ol class="deliveries">
        {deliveries.map((delivery) => {
          const last = delivery.attempts.at(-1);
          return (
            <li class="delivery">
              <details>
                <summary class="delivery__summary">
                  <StatusBadge status={delivery.status} />
                  <code class="delivery__type">{delivery.eventType}</code>
                  <span class="delivery__meta">
                    {last
                      ? (
                        <>
                          {last.responseStatus !== null
                            ? `HTTP ${last.responseStatus}`
                            : last.errorCode}
                          {last.durationMs !== null && ` · ${last.durationMs} ms`}
                        </>
                      )
                      : "not attempted yet"}
                    {" · "}
                    {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? "" : "s"}
                    {delivery.trigger !== "EVENT" && ` · ${delivery.trigger.toLowerCase()}`}
                  </span>
                  <span class="delivery__time">
                    <DateTime at={Date.parse(delivery.createdAt)} />
                  </span>
                </summary>
                <div class="delivery__body">
                  <Facts>
                    <Fact label="Event">
                      <Id>{delivery.eventId}</Id>
                    </Fact>
                    <Fact label="Delivery">
                      <Id>{delivery.id}</Id>
                    </Fact>
                    <Fact label="Next attempt">
                      {delivery.nextAttemptAt
                        ? <DateTime at={Date.parse(delivery.nextAttemptAt)} />
                        : delivery.status === "PENDING"
                        ? "in progress"
                        : "none (final)"}
                    </Fact>
                  </Facts>
                  {delivery.attempts.length === 0
                    ? <p class="muted">No attempt yet.</p>
                    : (
                      <div class="table-wrap">
                        <table class="table table--compact">
                          <caption class="visually-hidden">Attempts</caption>
                          <thead>
                            <tr>
                              <th scope="col">#</th>
                              <th scope="col">Started</th>
                              <th scope="col">Result</th>
                              <th scope="col" class="num">Latency</th>
                              <th scope="col">Response (first 1 KiB)</th>
                            </tr>
                          </thead>
                          <tbody>
                            {delivery.attempts.map((attempt) => (
                              <tr>
                                <td>{attempt.number}</td>
                                <td>
                                  <DateTime at={Date.parse(attempt.startedAt)} />
                                </td>
                                <td>
                                  <span
                                    class={`nowrap ${
                                      attempt.succeeded ? "text-success" : "text-danger"
                                    }`}
                                  >
                                    {attempt.responseStatus !== null
                                      ? `HTTP ${attempt.responseStatus}`
                                      : attempt.errorCode}
                                  </span>
                                  {attempt.errorMessage && (
                                    <span class="muted small block">{attempt.errorMessage}</span>
                                  )}
                                </td>
                                <td class="num">
                                  {attempt.durationMs === null ? "—" : `${attempt.durationMs} ms`}
                                </td>
                                <td>
                                  {attempt.responseBody
                                    ? (
                                      <pre class="response-body"><code>{attempt.responseBody}</code></pre>
                                    )
                                    : <span class="muted">(empty)</span>}
                                </td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </div>
                    )}
                  {endpoint.enabled === 1 && delivery.trigger !== "TEST" && (
                    <form
                      method="post"
                      action={`/panel/developers/webhooks/${endpoint.public_id}/resend`}
                      class="inline-form"
                      data-once
                    >
                      <CsrfField token={props.csrf} />
                      <input type="hidden" name="eventId" value={delivery.eventId} />
                      <button type="submit" class="button button--small button--secondary">
                        Resend this event
                      </button>
                    </form>
                  )}
                </div>
              </details>
            </li>
          );
        })}
      </ol>
      {props.next && (
        <p class="pager">
          <a href={props.next}>Older deliveries →</a>
        </p>
      )}
    </>
  );
}

/** Developers -> Webhooks: endpoints, their signing secrets and delivery logs. */
export function createWebhookPages(services: Services): Hono<PanelEnv> {
  const base = "/panel/developers/webhooks";

  const listPage = async (c: PanelContext) => {
    const ctx = orgCtx(c);
    const page = await listWebhookEndpoints(ctx, { limit: 100 });
    const notice = noticeOf(c, NOTICES);
    return renderPanel(services, c, {
      title: "Webhooks",
      current: "webhooks",
      body: (
        <>
          <PageHeader
            title="Webhooks"
            description={`Paystead POSTs signed events to these URLs in the ${services.environment}.`}
            actions={<a class="button button--primary" href={`${base}/new`}>Add endpoint</a>}
          />
          {notice && <Notice tone="success">{notice}</Notice>}
          <Card>
            {page.data.length === 0
              ? (
                <EmptyState title="No endpoints yet">
                  <p>
                    Add your server's URL to hear about payments, refunds and subscriptions.
                    {services.environment === "sandbox" && (
                      <>
                        {" "}No server yet? The{" "}
                        <a href="/panel/developers/quickstart">Quick Start</a>{" "}
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
                      {page.data.map((endpoint) => {
                        const events = JSON.parse(endpoint.event_types) as string[];
                        return (
                          <tr>
                            <td>
                              <a class="row-link mono" href={`${base}/${endpoint.public_id}`}>
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
              Every delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and
              {" "}
              <code>{SIGNATURE_HEADER}</code>: <code>v1,</code> and the base64 HMAC-SHA256 of{" "}
              <code>{"{webhook-id}.{webhook-timestamp}.{body}"}</code>{" "}
              with the endpoint's secret (the bytes after{" "}
              <code>whsec_</code>, base64-decoded). During a secret rotation it carries two
              signatures, separated by a space.
            </p>
          </Card>
        </>
      ),
    });
  };

  const formPage = (
    c: PanelContext,
    endpoint: WebhookEndpointRow | null,
    values: Form,
    problem: FormProblem | null,
    status = 200,
  ) =>
    renderPanel(services, c, {
      title: endpoint ? "Edit endpoint" : "Add endpoint",
      current: "webhooks",
      status,
      body: (
        <>
          <PageHeader
            title={endpoint ? "Edit endpoint" : "Add a webhook endpoint"}
            back={endpoint
              ? { href: `${base}/${endpoint.public_id}`, label: "Endpoint" }
              : { href: base, label: "Webhooks" }}
          />
          <Card class="card--narrow">
            <EndpointForm
              csrf={c.get("session").csrfToken}
              action={endpoint ? `${base}/${endpoint.public_id}` : base}
              endpoint={endpoint}
              values={values}
              problem={problem}
              environment={services.environment}
            />
          </Card>
        </>
      ),
    });

  const endpointPage = async (
    c: PanelContext,
    endpointId: string,
    shown: {
      secret?: string;
      previousUntil?: string | null;
      rotated?: boolean;
      recover?: { since: string; until: string; problem: FormProblem };
    } = {},
  ) => {
    const ctx = orgCtx(c);
    const session = c.get("session");
    const endpoint = await getWebhookEndpoint(ctx, endpointId);
    const resource = toWebhookEndpoint(endpoint);
    const startingAfter = c.req.query("startingAfter");
    const log = await listEndpointDeliveries(ctx, endpointId, { limit: 20, startingAfter });
    const notice = noticeOf(c, NOTICES);
    const here = `${base}/${endpoint.public_id}`;
    const offered = (name: string) => {
      const value = c.req.query(name);
      return isIsoTime(value) ? value : "";
    };
    return renderPanel(services, c, {
      title: endpoint.url,
      current: "webhooks",
      status: shown.recover?.problem.status,
      body: (
        <>
          <PageHeader
            title="Webhook endpoint"
            back={{ href: base, label: "Webhooks" }}
            description={<code class="mono">{endpoint.url}</code>}
            actions={
              <form method="post" action={`${here}/test`} class="inline-form" data-once>
                <CsrfField token={session.csrfToken} />
                <button type="submit" class="button button--secondary">Send test event</button>
              </form>
            }
          />
          {notice && <Notice tone="success">{notice}</Notice>}
          {endpoint.enabled === 0 && (
            <Notice tone="warning" title="This endpoint is disabled">
              <p>
                {DISABLED_TEXT[endpoint.disabled_reason ?? "MANUAL"]}
                {endpoint.disabled_at && (
                  <>
                    , <DateTime at={endpoint.disabled_at} />
                  </>
                )}. Nothing is delivered to it until you enable it again.
              </p>
            </Notice>
          )}
          <div class="grid grid--2">
            <Card title="Signing secret" id="secret">
              <p>
                Signature header: <code class="strong">{SIGNATURE_HEADER}</code>
              </p>
              {shown.secret
                ? (
                  <>
                    <OnceValue
                      id="signing-secret"
                      value={shown.secret}
                      label={shown.rotated ? "New signing secret" : "Signing secret"}
                    />
                    {shown.previousUntil && (
                      <p class="muted small">
                        The previous secret also signs until{" "}
                        <DateTime at={Date.parse(shown.previousUntil)} />, so your server can switch
                        without rejecting a delivery.
                      </p>
                    )}
                  </>
                )
                : (
                  <form method="post" action={`${here}/secret`} class="inline-form">
                    <CsrfField token={session.csrfToken} />
                    <code class="masked" aria-label="hidden secret">whsec_••••••••••••••••</code>
                    <button type="submit" class="button button--small button--secondary">
                      Reveal
                    </button>
                  </form>
                )}
              <div class="actions">
                <ConfirmAction
                  action={`${here}/rotate`}
                  csrf={session.csrfToken}
                  label="Rotate secret"
                  confirmLabel="Rotate now"
                  tone="default"
                >
                  A new secret signs from now on; the current one keeps signing too for 24 hours, so
                  deploy the new one within a day.
                </ConfirmAction>
              </div>
            </Card>
            <Card title="Settings" id="settings">
              <Facts>
                <Fact label="Status">
                  {endpoint.enabled === 1
                    ? <StatusBadge status="ENABLED" label="Enabled" />
                    : <StatusBadge status="DISABLED" label="Disabled" />}
                </Fact>
                <Fact label="Events">
                  {resource.events.includes("*") ? "All events" : resource.events.join(", ")}
                </Fact>
                <Fact label="Description">{resource.description ?? "—"}</Fact>
                <Fact label="Id">
                  <Id>{resource.id}</Id>
                </Fact>
                <Fact label="Created">
                  <DateTime at={endpoint.created_at} />
                </Fact>
              </Facts>
              <div class="actions">
                <a class="button button--small button--secondary" href={`${here}/edit`}>Edit</a>
                {endpoint.enabled === 1
                  ? (
                    <ConfirmAction
                      action={`${here}/disable`}
                      csrf={session.csrfToken}
                      label="Disable"
                      confirmLabel="Disable endpoint"
                    >
                      Pending deliveries are canceled and nothing is sent until you enable it.
                    </ConfirmAction>
                  )
                  : (
                    <form method="post" action={`${here}/enable`} class="inline-form" data-once>
                      <CsrfField token={session.csrfToken} />
                      <button type="submit" class="button button--small button--primary">
                        Enable
                      </button>
                    </form>
                  )}
                <ConfirmAction
                  action={`${here}/delete`}
                  csrf={session.csrfToken}
                  label="Delete"
                  confirmLabel="Delete endpoint"
                >
                  Deliveries stop and its secret is wiped. The delivery log stays in the API.
                </ConfirmAction>
              </div>
            </Card>
          </div>
          {endpoint.enabled === 1 && (
            <Card title="Recover events" id="recover">
              <RecoverEventsForm
                action={`${here}/recover`}
                csrf={session.csrfToken}
                since={shown.recover?.since ?? offered("since")}
                until={shown.recover?.until ?? offered("until")}
                problem={shown.recover?.problem ?? null}
              />
            </Card>
          )}
          <Card title="Delivery log" id="log">
            <DeliveryLog
              deliveries={log.data}
              endpoint={endpoint}
              csrf={session.csrfToken}
              next={log.hasMore ? `${here}?startingAfter=${log.data.at(-1)!.id}#log` : null}
            />
          </Card>
          <Card title="Verify the signature on your server" id="verify">
            <p>
              Pass the raw body and the headers to a Standard Webhooks library with this endpoint's
              secret; answer 2xx within 15 seconds and do the work afterwards.
            </p>
            <CodeBlock id="verify-snippet" label="Node, Deno or Bun" code={verificationSnippet()} />
          </Card>
        </>
      ),
    });
  };

  return new Hono<PanelEnv>()
    .get(base, (c) => listPage(c))
    .get(`${base}/new`, (c) => formPage(c, null, {}, null))
    .post(base, async (c) => {
      const form = await readForm(c);
      const result = await attempt(() => {
        const description = field(form, "description").trim();
        return createWebhookEndpoint(
          orgCtx(c),
          parseRequest(CreateWebhookEndpointRequest, {
            url: field(form, "url").trim(),
            events: eventsFromForm(form),
            ...(description !== "" && { description }),
          }),
        );
      });
      if (!result.ok) return formPage(c, null, form, result.problem, result.problem.status);
      return redirectWith(c, `${base}/${result.value.public_id}`, "created");
    })
    .get(`${base}/:id`, (c) => endpointPage(c, c.req.param("id")))
    .get(`${base}/:id/edit`, async (c) => {
      const endpoint = await getWebhookEndpoint(orgCtx(c), c.req.param("id"));
      return formPage(c, endpoint, {}, null);
    })
    .post(`${base}/:id`, async (c) => {
      const ctx = orgCtx(c);
      const endpoint = await getWebhookEndpoint(ctx, c.req.param("id"));
      const form = await readForm(c);
      const result = await attempt(() => {
        const description = field(form, "description").trim();
        return updateWebhookEndpoint(
          ctx,
          endpoint.public_id,
          parseRequest(UpdateWebhookEndpointRequest, {
            url: field(form, "url").trim(),
            events: eventsFromForm(form),
            description: description === "" ? null : description,
          }),
        );
      });
      if (!result.ok) return formPage(c, endpoint, form, result.problem, result.problem.status);
      return redirectWith(c, `${base}/${endpoint.public_id}`, "saved");
    })
    .post(`${base}/:id/enable`, async (c) => {
      const id = c.req.param("id");
      const ctx = orgCtx(c);
      const before = await getWebhookEndpoint(ctx, id);
      const enabled = await updateWebhookEndpoint(ctx, id, { enabled: true });
      if (before.enabled === 1 || before.disabled_at === null) {
        return redirectWith(c, `${base}/${id}`, "enabled");
      }
      // Offer the time it was off for recovery: from when it was disabled to now.
      const window = `since=${toIso(before.disabled_at)}&until=${toIso(enabled.updated_at)}`;
      return redirectWith(c, `${base}/${id}?${window}`, "enabled");
    })
    .post(`${base}/:id/recover`, async (c) => {
      const id = c.req.param("id");
      const form = await readForm(c);
      const since = field(form, "since").trim();
      const until = field(form, "until").trim();
      const result = await attempt(() =>
        recoverEvents(
          orgCtx(c),
          id,
          parseRequest(RecoverEventsRequest, { since, ...(until !== "" && { until }) }),
        )
      );
      if (!result.ok) {
        return endpointPage(c, id, { recover: { since, until, problem: result.problem } });
      }
      return redirectWith(c, `${base}/${id}`, "recovered");
    })
    .post(`${base}/:id/disable`, async (c) => {
      const id = c.req.param("id");
      await updateWebhookEndpoint(orgCtx(c), id, { enabled: false });
      return redirectWith(c, `${base}/${id}`, "disabled");
    })
    .post(`${base}/:id/delete`, async (c) => {
      await deleteWebhookEndpoint(orgCtx(c), c.req.param("id"));
      return redirectWith(c, base, "deleted");
    })
    .post(`${base}/:id/secret`, async (c) => {
      const secret = await revealWebhookEndpointSecret(orgCtx(c), c.req.param("id"));
      return endpointPage(c, c.req.param("id"), {
        secret: secret.secret,
        previousUntil: secret.previousSecretExpiresAt,
      });
    })
    .post(`${base}/:id/rotate`, async (c) => {
      const ctx = orgCtx(c);
      const rotated = await rotateWebhookEndpointSecret(ctx, c.req.param("id"));
      return endpointPage(c, rotated.public_id, {
        secret: rotated.secret,
        previousUntil: rotated.previous_secret_expires_at === null
          ? null
          : new Date(rotated.previous_secret_expires_at).toISOString(),
        rotated: true,
      });
    })
    .post(`${base}/:id/test`, async (c) => {
      const id = c.req.param("id");
      await sendTestWebhook(orgCtx(c), id);
      return redirectWith(c, `${base}/${id}`, "test");
    })
    .post(`${base}/:id/resend`, async (c) => {
      const id = c.req.param("id");
      const form = await readForm(c);
      await resendEvent(orgCtx(c), field(form, "eventId"), { endpointId: id });
      return redirectWith(c, `${base}/${id}`, "resent");
    });
}
