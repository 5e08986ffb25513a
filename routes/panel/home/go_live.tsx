import type { ComponentChildren } from "preact";
import { Card } from "../../../components/panel/ui.tsx";
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
        <p class="qs-step__links">
          <a href={props.link.href}>{props.link.label} →</a>
        </p>
      </div>
    </li>
  );
}

/** Production's empty home: the provider, keys and webhooks to check before taking payments. */
export function GoLiveCard(props: { checklist: GoLiveChecklist }) {
  const { provider, usableApiKeys, enabledWebhookEndpoints, businessDetails, smtp } =
    props.checklist;
  return (
    <Card title="Go live" id="go-live">
      <p>
        No payments in the last {CHART_DAYS} days. Before your customers pay here, check these four:
      </p>
      <ol class="qs-steps">
        <Step
          number={1}
          title="Payment provider"
          done={provider.lastSuccessAt !== null}
          link={{ href: "/panel/developers", label: "Provider status" }}
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
        <Step
          number={4}
          title="Business details"
          done={businessDetails}
          link={{ href: "/panel/team#business-details", label: "Business details" }}
        >
          {businessDetails
            ? "Customers see your legal name, address and contact on the payment page and in their e-mails."
            : "Not set: customers must be told who they pay (legal name, address, NIP, contact) on the payment page and in their e-mails."}
        </Step>
      </ol>
      <p>
        {smtp
          ? "Customer e-mails (payment confirmations, refund notices) go out through SMTP_URL."
          : "This production process has no SMTP_URL, so it sends no e-mails: customers get no payment confirmation. Set SMTP_URL and MAIL_FROM and restart."}
      </p>
      <p class="actions">
        <a class="button button--primary" href="/panel/offers/new">Create an offer</a>
      </p>
    </Card>
  );
}
