import type { ComponentChildren } from "preact";
import { Card, CsrfField, Notice } from "../../../components/panel/ui.tsx";
import type { ConnectionTest } from "../../../lib/providers/connection_test.ts";
import { toIso } from "../../../lib/clock.ts";
import { CHART_DAYS, type GoLiveChecklist } from "../../../lib/panel/home.ts";
import { WEBHOOKS_HREF } from "../webhooks/href.ts";

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function Step(props: {
  number: number;
  title: string;
  done: boolean;
  link: { href: string; label: string };
  children: ComponentChildren;
  extra?: ComponentChildren;
}) {
  return (
    <li class={`qs-step ${props.done ? "qs-step--done" : ""}`}>
      <div class="qs-step__head">
        <span class="qs-step__number" aria-hidden="true">{props.done ? "✓" : props.number}</span>
        <h3 class="qs-step__title">
          <span class="visually-hidden">Step {props.number}{props.done ? " (done)" : ""}:</span>
          {" "}
          {props.title}
        </h3>
      </div>
      <div class="qs-step__body">
        <p>{props.children}</p>
        {props.extra}
        <p class="qs-step__links">
          <a href={props.link.href}>{props.link.label} →</a>
        </p>
      </div>
    </li>
  );
}

/** What the PayU connection test answered, where the merchant pressed it. */
function ConnectionTestResult(props: { test: ConnectionTest }) {
  const { test } = props;
  return test.ok
    ? (
      <Notice tone="success" title="PayU answered">
        {test.apiUrl} issued an OAuth token valid for {test.expiresInSeconds}{" "}
        seconds: the POS's credentials work.
      </Notice>
    )
    : (
      <Notice tone="error" title="PayU did not issue a token">
        {test.message}
      </Notice>
    );
}

/** The step's button that asks PayU for a token now. */
function TestConnectionForm(props: { csrf: string }) {
  return (
    <form method="post" action="/panel/go-live/test-provider" class="form--inline" data-once>
      <CsrfField token={props.csrf} />
      <button type="submit" class="button button--secondary button--small">
        Test the PayU connection
      </button>
    </form>
  );
}

/**
 * Production's checklist: the provider, keys and webhooks to check before taking payments. It
 * stays, payments or not, until every step is done.
 */
export function GoLiveCard(props: {
  checklist: GoLiveChecklist;
  /** Whether anything was paid in the period: the lead says so. */
  paid: boolean;
  csrf: string;
  connectionTest: ConnectionTest | null;
}) {
  const { provider, usableApiKeys, enabledWebhookEndpoints } = props.checklist;
  return (
    <Card title="Go live" id="go-live">
      <p>
        {props.paid
          ? "Payments have started; finish these steps so that none goes unnoticed:"
          : `No payments in the last ${CHART_DAYS} days. Before your customers pay here, check these steps:`}
      </p>
      <ol class="qs-steps">
        <Step
          number={1}
          title="Payment provider"
          done={provider.lastSuccessAt !== null}
          link={{ href: "/panel/developers", label: "Provider status" }}
          extra={
            <>
              {props.connectionTest && <ConnectionTestResult test={props.connectionTest} />}
              <TestConnectionForm csrf={props.csrf} />
            </>
          }
        >
          {provider.description}. {provider.lastSuccessAt === null
            ? "No successful call since this process started."
            : `Last successful call ${toIso(provider.lastSuccessAt)}.`}
        </Step>
        <Step
          number={2}
          title="Production API key"
          done={usableApiKeys > 0}
          link={{ href: "/panel/developers/api-keys", label: "API keys" }}
        >
          {usableApiKeys === 0
            ? "No production API key yet: your server needs one to create payments."
            : `${plural(usableApiKeys, "production key", "production keys")} in use.`}
        </Step>
        <Step
          number={3}
          title="Webhook endpoint"
          done={enabledWebhookEndpoints > 0}
          link={{ href: WEBHOOKS_HREF, label: "Webhooks" }}
        >
          {enabledWebhookEndpoints === 0
            ? "No webhook endpoint yet: add one so your server hears when a payment succeeds."
            : `${
              plural(enabledWebhookEndpoints, "endpoint receives", "endpoints receive")
            } events.`}
        </Step>
      </ol>
      <p class="actions">
        <a class="button button--primary" href="/panel/offers/new">Create an offer</a>
      </p>
    </Card>
  );
}
