import type { LoggedWebhookDelivery } from "../../lib/webhooks/delivery_log.ts";
import { CsrfField, DateTime, EmptyState, Fact, Facts, Id, StatusBadge, TableWrap } from "./ui.tsx";

type Attempt = LoggedWebhookDelivery["attempts"][number];

/**
 * The log's words in the page's language, resolved on the server: the log is an island, and the
 * catalogues stay on the server. Counts are plural forms by `Intl.PluralRules` category.
 */
export interface DeliveryLogWords {
  language: string;
  status: Record<string, string>;
  attempts: Record<string, string>;
  notAttempted: string;
  trigger: Record<string, string>;
  event: string;
  delivery: string;
  nextAttempt: string;
  inProgress: string;
  noneFinal: string;
  noAttempt: string;
  resend: string;
  none: string;
  noneText: string;
  older: string;
  attemptsCaption: string;
  started: string;
  result: string;
  latency: string;
  response: string;
  empty: string;
}

/** "3 attempts" in the log's language. */
function attemptsText(words: DeliveryLogWords, count: number): string {
  const category = new Intl.PluralRules(words.language).select(count);
  return (words.attempts[category] ?? words.attempts.other).replace("#", String(count));
}

/** What one page of an endpoint's delivery log shows. */
export interface DeliveryLogProps {
  words: DeliveryLogWords;
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

function AttemptsTable(props: { attempts: Attempt[]; words: DeliveryLogWords }) {
  const { words } = props;
  return (
    <TableWrap label={words.attemptsCaption}>
      <table class="table table--compact">
        <caption class="visually-hidden">{words.attemptsCaption}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{words.started}</th>
            <th scope="col">{words.result}</th>
            <th scope="col" class="num">{words.latency}</th>
            <th scope="col">{words.response}</th>
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
                  : <span class="muted">{words.empty}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function DeliveryRow(props: { delivery: LoggedWebhookDelivery } & DeliveryLogProps) {
  const { delivery, words } = props;
  const last = delivery.attempts.at(-1);
  return (
    <li class="delivery" data-delivery={delivery.id}>
      <details>
        <summary class="delivery__summary">
          <StatusBadge
            status={delivery.status}
            label={words.status[delivery.status] ?? delivery.status}
          />
          <code class="delivery__type">{delivery.eventType}</code>
          <span class="delivery__meta">
            {last
              ? (
                <>
                  {resultOf(last)}
                  {last.durationMs !== null && ` · ${last.durationMs} ms`}
                </>
              )
              : words.notAttempted}
            {" · "}
            {attemptsText(words, delivery.attemptCount)}
            {delivery.trigger !== "EVENT" &&
              ` · ${words.trigger[delivery.trigger] ?? delivery.trigger.toLowerCase()}`}
          </span>
          <span class="delivery__time">
            <DateTime at={Date.parse(delivery.createdAt)} />
          </span>
        </summary>
        <div class="delivery__body">
          <Facts>
            <Fact label={words.event}>
              <Id>{delivery.eventId}</Id>
            </Fact>
            <Fact label={words.delivery}>
              <Id>{delivery.id}</Id>
            </Fact>
            <Fact label={words.nextAttempt}>
              {delivery.nextAttemptAt
                ? <DateTime at={Date.parse(delivery.nextAttemptAt)} />
                : delivery.status === "PENDING"
                ? words.inProgress
                : words.noneFinal}
            </Fact>
          </Facts>
          {delivery.attempts.length === 0
            ? <p class="muted">{words.noAttempt}</p>
            : <AttemptsTable attempts={delivery.attempts} words={words} />}
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
                {words.resend}
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
      <EmptyState title={props.words.none}>
        <p>{props.words.noneText}</p>
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
            {props.words.older}
          </a>
        </p>
      )}
    </>
  );
}
