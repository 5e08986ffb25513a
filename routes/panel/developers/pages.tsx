import type { ComponentChildren } from "preact";
import { rich, useT } from "../../../components/panel/i18n.ts";
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
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader title={t("panel.dev.title")} />
      <Card class="upgrade">
        <p class="upgrade__eyebrow">{t("panel.dev.upgrade.eyebrow")}</p>
        <h2>{t("panel.dev.upgrade.title")}</h2>
        <p>{t("panel.dev.upgrade.lead", { org: props.orgName })}</p>
        <ul class="ticks">
          <li>{t("panel.dev.upgrade.keys")}</li>
          <li>{t("panel.dev.upgrade.webhooks")}</li>
          <li>{t("panel.dev.upgrade.checkout")}</li>
          <li>
            {props.quickstartPlan === "BASIC"
              ? t("panel.dev.upgrade.quickstart")
              : t("panel.dev.upgrade.quickstartOn", { plan: props.quickstartPlan })}
          </li>
        </ul>
        <p>
          {rich(tr, "panel.dev.upgrade.reference", {
            reference: <a href="/panel/reference">{t("panel.dev.upgrade.referenceLink")}</a>,
          })}
        </p>
        <p>
          {rich(tr, "panel.dev.upgrade.free", {
            call: <code>{"POST /api/v1/webhook-endpoints/{id}/recover"}</code>,
          })}
        </p>
        <p class="muted">
          {rich(tr, "panel.dev.upgrade.plans", {
            command: (
              <code>
                deno task cli org set-plan --slug {props.orgSlug} --plan BASIC
              </code>
            ),
            team: <a href="/panel/team#plan">{t("panel.dev.upgrade.team")}</a>,
          })}
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
  const { t } = useT();
  return (
    <>
      <PageHeader
        title={t("panel.dev.title")}
        description={t(`panel.dev.description.${env}`, { url: props.publicUrl })}
      />
      <div class="tiles">
        {props.quickstart && (
          <Tile href="/panel/developers/quickstart" title={t("panel.dev.tile.quickstart")}>
            {t("panel.dev.tile.quickstartText")}
          </Tile>
        )}
        <Tile href="/panel/developers/api-keys" title={t("panel.dev.tile.keys")}>
          {t("panel.dev.tile.keysText")}
        </Tile>
        <Tile href="/panel/developers/webhooks" title={t("panel.dev.tile.webhooks")}>
          {t("panel.dev.tile.webhooksText")}
        </Tile>
        <Tile href="/panel/developers/checkout" title={t("panel.dev.tile.checkout")}>
          {t("panel.dev.tile.checkoutText")}
        </Tile>
        {env === "sandbox" && (
          <Tile href="/panel/developers/mailbox" title={t("panel.dev.tile.mailbox")}>
            {t("panel.dev.tile.mailboxText")}
          </Tile>
        )}
        <Tile href="/panel/reference" title={t("panel.dev.tile.reference")}>
          {t("panel.dev.tile.referenceText")}
        </Tile>
      </div>
      <ProviderStatusCard status={props.providerStatus} />
      <Card title={t(env === "sandbox" ? "panel.dev.goingLive" : "panel.dev.production")}>
        <p>{t("panel.dev.separate")}</p>
      </Card>
    </>
  );
}
