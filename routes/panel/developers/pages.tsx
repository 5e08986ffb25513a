import type { ComponentChildren } from "preact";
import { ProviderStatusCard } from "../../../components/panel/ProviderStatus.tsx";
import { Card, PageHeader } from "../../../components/panel/ui.tsx";
import type { Environment } from "../../../lib/config.ts";
import type { Plan } from "../../../lib/plans.ts";
import type { ProviderStatus } from "../../../lib/providers/status.ts";

/**
 * What a FREE organisation's owners and admins see in place of Developers: what it would give,
 * and how to get it. The API reference is open on every plan, so it is no perk.
 */
export function DevelopersUpgradePage(props: {
  orgName: string;
  orgSlug: string;
  /** The plan the Quick Start needs (QUICKSTART_ACCESS decides). */
  quickstartPlan: Plan;
}) {
  return (
    <>
      <PageHeader title="Developers" />
      <Card class="upgrade">
        <p class="upgrade__eyebrow">Plan BASIC or higher</p>
        <h2>Connect your shop to Paystead</h2>
        <p>
          {props.orgName}{" "}
          is on the FREE plan: offers, QR codes and payments in the panel. With BASIC or higher you
          also get:
        </p>
        <ul class="ticks">
          <li>API keys for your server, in sandbox and production</li>
          <li>Signed webhooks with a delivery log, resends and test events</li>
          <li>Embedded checkout on your own pages, with a live preview</li>
          <li>
            The interactive Quick Start{props.quickstartPlan === "BASIC"
              ? ""
              : `, on ${props.quickstartPlan}`}
          </li>
        </ul>
        <p>
          The <a href="/panel/reference">API reference</a> is open on every plan.
        </p>
        <p>
          On FREE no webhook is delivered, to endpoints set up before a downgrade too, and
          deliveries that were waiting are canceled. Events are still recorded: after an upgrade,
          recover an endpoint's deliveries for that time with{" "}
          <code>{"POST /api/v1/webhook-endpoints/{id}/recover"}</code>.
        </p>
        <p class="muted">
          Plans are set by whoever runs this Paystead installation:{" "}
          <code>
            deno task cli org set-plan --slug {props.orgSlug} --plan BASIC
          </code>
          . See <a href="/panel/team#plan">Team and plan</a>.
        </p>
      </Card>
    </>
  );
}

function Tile(props: { href: string; title: string; children: ComponentChildren }) {
  return (
    <a class="tile" href={props.href}>
      <span class="tile__title">{props.title} →</span>
      <span class="tile__text">{props.children}</span>
    </a>
  );
}

/** Developers' overview: where the integration is configured, in this environment. */
export function DevelopersPage(props: {
  environment: Environment;
  publicUrl: string;
  quickstart: boolean;
  providerStatus: ProviderStatus;
}) {
  const env = props.environment;
  return (
    <>
      <PageHeader
        title="Developers"
        description={`Everything your integration needs in the ${env}. The API host is ${props.publicUrl}.`}
      />
      <div class="tiles">
        {props.quickstart && (
          <Tile href="/panel/developers/quickstart" title="Quick Start">
            Take a test payment end to end in the sandbox, step by step, with curl for each call.
          </Tile>
        )}
        <Tile href="/panel/developers/api-keys" title="API keys">
          Create, roll and revoke the secret keys your server sends as Authorization: Bearer.
        </Tile>
        <Tile href="/panel/developers/webhooks" title="Webhooks">
          Endpoints, signing secrets and every delivery attempt, with resend and test events.
        </Tile>
        <Tile href="/panel/developers/checkout" title="Checkout sessions">
          Which of your sites may embed checkout, recent sessions and a live preview.
        </Tile>
        {env === "sandbox" && (
          <Tile href="/panel/developers/mailbox" title="Sandbox mailbox">
            The e-mails customers would receive (confirmations, refund notices), kept here instead
            of sent while there is no SMTP_URL.
          </Tile>
        )}
        <Tile href="/panel/reference" title="API reference">
          Every operation with its parameters and responses, from this server's OpenAPI.
        </Tile>
      </div>
      <ProviderStatusCard status={props.providerStatus} />
      <Card title={env === "sandbox" ? "Going live" : "Production"}>
        <p>
          Sandbox and production are separate: each has its own keys, offers, webhooks and checkout
          allowlist, and nothing is copied between them. When your sandbox integration works, create
          a production key and webhook endpoint in the production panel, and point your server at
          the production host.
        </p>
      </Card>
    </>
  );
}
