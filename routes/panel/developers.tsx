import { Hono } from "hono";
import { Card, PageHeader } from "../../components/panel/ui.tsx";
import type { Services } from "../../lib/context.ts";
import { can } from "../../lib/accounts/access.ts";
import { allow } from "./kit/access.ts";
import { type PanelContext, type PanelEnv, subjectOf } from "./kit/context.ts";
import { renderPanel } from "./kit/render.tsx";
import { ProviderStatusCard } from "../../components/panel/ProviderStatus.tsx";
import { providerStatus } from "../../lib/providers/status.ts";

/**
 * What a FREE organisation's owners and admins see in place of Developers: what it would give,
 * and how to get it. 403, because the page they asked for is refused.
 */
export function upgradePage(services: Services) {
  return (c: PanelContext) =>
    renderPanel(services, c, {
      title: "Developers",
      current: "developers",
      status: 403,
      body: (
        <>
          <PageHeader title="Developers" />
          <Card class="upgrade">
            <p class="upgrade__eyebrow">Plan BASIC or higher</p>
            <h2>Connect your shop to Paystead</h2>
            <p>
              {c.get("session").org.name}{" "}
              is on the FREE plan: offers, QR codes and payments in the panel. With BASIC or higher
              you also get:
            </p>
            <ul class="ticks">
              <li>API keys for your server, in sandbox and production</li>
              <li>Signed webhooks with a delivery log, resends and test events</li>
              <li>Embedded checkout on your own pages, with a live preview</li>
              <li>The interactive Quick Start and the API reference</li>
            </ul>
            <p>
              On FREE no webhook is delivered, to endpoints set up before a downgrade too, and
              deliveries that were waiting are canceled. Events are still recorded: after an
              upgrade, recover an endpoint's deliveries for that time with{" "}
              <code>{"POST /api/v1/webhook-endpoints/{id}/recover"}</code>.
            </p>
            <p class="muted">
              Plans are set by whoever runs this Paystead installation:{" "}
              <code>
                deno task cli org set-plan --slug {c.get("session").org.slug} --plan BASIC
              </code>
              . See <a href="/panel/team#plan">Team and plan</a>.
            </p>
          </Card>
        </>
      ),
    });
}

function Tile(props: { href: string; title: string; children: preact.ComponentChildren }) {
  return (
    <a class="tile" href={props.href}>
      <span class="tile__title">{props.title} →</span>
      <span class="tile__text">{props.children}</span>
    </a>
  );
}

/** Developers' overview: where the integration is configured, in this environment. */
export function createDevelopersPages(services: Services): Hono<PanelEnv> {
  const app = new Hono<PanelEnv>();
  app.use("/panel/developers", allow(services, "developers", upgradePage(services)));
  app.use("/panel/developers/*", allow(services, "developers", upgradePage(services)));
  app.get("/panel/developers", (c) => {
    const quickstart = can(
      "quickstart",
      subjectOf(c.get("session")),
      services.config.quickstartAccess,
    );
    const env = services.environment;
    return renderPanel(services, c, {
      title: "Developers",
      current: "developers",
      body: (
        <>
          <PageHeader
            title="Developers"
            description={`Everything your integration needs in the ${env}. The API host is ${services.config.publicUrl}.`}
          />
          <div class="tiles">
            {quickstart && (
              <Tile href="/panel/developers/quickstart" title="Quick Start">
                Take a test payment end to end in the sandbox, step by step, with curl for each
                call.
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
            <Tile href="/panel/reference" title="API reference">
              Every operation with its parameters and responses, from this server's OpenAPI.
            </Tile>
          </div>
          <ProviderStatusCard status={providerStatus(services)} />
          <Card title={env === "sandbox" ? "Going live" : "Production"}>
            <p>
              Sandbox and production are separate: each has its own keys, offers, webhooks and
              checkout allowlist, and nothing is copied between them. When your sandbox integration
              works, create a production key and webhook endpoint in the production panel, and point
              your server at the production host.
            </p>
          </Card>
        </>
      ),
    });
  });
  return app;
}
