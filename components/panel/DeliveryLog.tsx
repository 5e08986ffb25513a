import type { LoggedWebhookDelivery } from "../../lib/webhooks/delivery_log.ts";
import { CsrfField, DateTime, EmptyState, Fact, Facts, Id, StatusBadge } from "./ui.tsx";

type Attempt = LoggedWebhookDelivery["attempts"][number];

/** What one page of an endpoint's delivery log shows. */
export interface DeliveryLogProps {
  /** The endpoint's page; resends post below it and the pager links to it. */
  endpointHref: string;
  /** Whether deliveries can be sent again (the endpoint is enabled). */
  resendable: boolean;
  csrf: string;
  deliveries: LoggedWebhookDelivery[];
  /** The cursor of the next older page, if there is one. */
  olderCursor: string | null;
}

function resultOf(attempt: Attempt): string {
  return attempt.responseStatus !== null
    ? `HTTP ${attempt.responseStatus}`
    : attempt.errorCode ?? "";
}

function AttemptsTable(props: { attempts: Attempt[] }) {
  return (
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
          {props.attempts.map((attempt) => (
            <tr key={attempt.number}>
              <td>{attempt.number}</td>
              <td>
                <DateTime at={Date.parse(attempt.startedAt)} />
              </td>
              <td>
                <span class={`nowrap ${attempt.succeeded ? "text-success" : "text-danger"}`}>
                  {resultOf(attempt)}
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
                  ? <pre class="response-body"><code>{attempt.responseBody}</code></pre>
                  : <span class="muted">(empty)</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DeliveryRow(props: { delivery: LoggedWebhookDelivery } & DeliveryLogProps) {
  const { delivery } = props;
  const last = delivery.attempts.at(-1);
  return (
    <li class="delivery" data-delivery={delivery.id}>
      <details>
        <summary class="delivery__summary">
          <StatusBadge status={delivery.status} />
          <code class="delivery__type">{delivery.eventType}</code>
          <span class="delivery__meta">
            {last
              ? (
                <>
                  {resultOf(last)}
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
            : <AttemptsTable attempts={delivery.attempts} />}
          {props.resendable && delivery.trigger !== "TEST" && (
            <form
              method="post"
              action={`${props.endpointHref}/resend`}
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
}

/** An endpoint's deliveries, newest first, each with its attempts. */
export function DeliveryLog(props: DeliveryLogProps) {
  if (props.deliveries.length === 0) {
    return (
      <EmptyState title="No deliveries yet">
        <p>Events recorded from now on are delivered here. Send a test event to try it.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ol class="deliveries">
        {props.deliveries.map((delivery) => (
          <DeliveryRow key={delivery.id} delivery={delivery} {...props} />
        ))}
      </ol>
      {props.olderCursor && (
        <p class="pager">
          <a href={`${props.endpointHref}?startingAfter=${props.olderCursor}#log`}>
            Older deliveries →
          </a>
        </p>
      )}
    </>
  );
}
