import { Island } from "../../../components/Island.tsx";
import {
  Card,
  CodeBlock,
  ConfirmAction,
  CsrfField,
  DateTime,
  Fact,
  Facts,
  Id,
  Notice,
  OnceValue,
  PageHeader,
  StatusBadge,
} from "../../../components/panel/ui.tsx";
import type { WebhookEndpointView } from "../../../lib/panel/webhooks.ts";
import type { FormProblem } from "../kit/forms.ts";
import { endpointHref, WEBHOOKS_HREF } from "./href.ts";
import { DISABLED_TEXT, SIGNATURE_HEADER } from "./pages.tsx";
import { RecoverEventsForm } from "./recover_form.tsx";

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

/** What the endpoint's page shows besides the endpoint: a secret just revealed, the recover form. */
export interface EndpointPageExtras {
  /** The signing secret, when just revealed or rotated (shown once). */
  secret?: string;
  previousUntil?: string | null;
  rotated?: boolean;
  /** The recover form's window and its problem, if the last try had one. */
  recover: { since: string; until: string; problem: FormProblem | null };
}

/** One endpoint: its secret, settings, recovery, the live delivery log and how to verify. */
export function WebhookEndpointPage(
  props: EndpointPageExtras & {
    view: WebhookEndpointView;
    csrf: string;
    notice: string | null;
    /** The newest page of the log, which follows new deliveries (older pages stay put). */
    newest: boolean;
  },
) {
  const { endpoint, resource, log } = props.view;
  const here = endpointHref(endpoint.public_id);
  return (
    <>
      <PageHeader
        title="Webhook endpoint"
        back={{ href: WEBHOOKS_HREF, label: "Webhooks" }}
        description={<code class="mono">{endpoint.url}</code>}
        actions={
          <form method="post" action={`${here}/test`} class="inline-form" data-once>
            <CsrfField token={props.csrf} />
            <button type="submit" class="button button--secondary">Send test event</button>
          </form>
        }
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
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
          {props.secret
            ? (
              <>
                <OnceValue
                  id="signing-secret"
                  value={props.secret}
                  label={props.rotated ? "New signing secret" : "Signing secret"}
                />
                {props.previousUntil && (
                  <p class="muted small">
                    The previous secret also signs until{" "}
                    <DateTime at={Date.parse(props.previousUntil)} />, so your server can switch
                    without rejecting a delivery.
                  </p>
                )}
              </>
            )
            : (
              <form method="post" action={`${here}/secret`} class="inline-form">
                <CsrfField token={props.csrf} />
                <code class="masked" aria-label="hidden secret">whsec_••••••••••••••••</code>
                <button type="submit" class="button button--small button--secondary">
                  Reveal
                </button>
              </form>
            )}
          <div class="actions">
            <ConfirmAction
              action={`${here}/rotate`}
              csrf={props.csrf}
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
                  csrf={props.csrf}
                  label="Disable"
                  confirmLabel="Disable endpoint"
                >
                  Pending deliveries are canceled and nothing is sent until you enable it.
                </ConfirmAction>
              )
              : (
                <form method="post" action={`${here}/enable`} class="inline-form" data-once>
                  <CsrfField token={props.csrf} />
                  <button type="submit" class="button button--small button--primary">
                    Enable
                  </button>
                </form>
              )}
            <ConfirmAction
              action={`${here}/delete`}
              csrf={props.csrf}
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
            csrf={props.csrf}
            since={props.recover.since}
            until={props.recover.until}
            problem={props.recover.problem}
          />
        </Card>
      )}
      <Card title="Delivery log" id="log">
        <Island
          name="LiveDeliveryLog"
          props={{
            endpointHref: here,
            resendable: endpoint.enabled === 1,
            csrf: props.csrf,
            deliveries: log.deliveries,
            olderCursor: log.olderCursor,
            live: props.newest,
          }}
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
  );
}
