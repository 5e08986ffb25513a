import type { ComponentChildren } from "preact";
import { useT } from "../../../components/panel/i18n.ts";
import { providerText } from "../../../components/panel/ProviderStatus.tsx";
import { Card, CsrfField, Notice } from "../../../components/panel/ui.tsx";
import type { ConnectionTest } from "../../../lib/providers/mod.ts";
import { translateError } from "../../../lib/panel/error_text.ts";
import { toIso } from "../../../lib/clock.ts";
import { CHART_DAYS, type GoLiveChecklist } from "../../../lib/panel/home.ts";
import { WEBHOOKS_HREF } from "../webhooks/href.ts";

function Step(props: {
  number: number;
  title: string;
  done: boolean;
  link: { href: string; label: string };
  children: ComponentChildren;
  extra?: ComponentChildren;
}) {
  const { t } = useT();
  return (
    <li class={`qs-step ${props.done ? "qs-step--done" : ""}`}>
      <div class="qs-step__head">
        <span class="qs-step__number" aria-hidden="true">{props.done ? "✓" : props.number}</span>
        <h3 class="qs-step__title">
          <span class="visually-hidden">
            {t(props.done ? "panel.goLive.stepDone" : "panel.goLive.step", {
              number: props.number,
            })}
          </span>{" "}
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

/** What the provider's connection test answered, where the merchant pressed it. */
function ConnectionTestResult(props: { test: ConnectionTest; provider: string }) {
  const { test, provider } = props;
  const tr = useT();
  return test.ok
    ? (
      <Notice tone="success" title={tr.t("panel.goLive.testOk", { provider })}>
        {tr.t("panel.goLive.testOkText", { url: test.apiUrl, seconds: test.expiresInSeconds })}
      </Notice>
    )
    : (
      <Notice tone="error" title={tr.t("panel.goLive.testFailed", { provider })}>
        {translateError(tr, test.message)}
      </Notice>
    );
}

/** The step's button that asks the provider for a token now. */
function TestConnectionForm(props: { csrf: string; provider: string }) {
  const { t } = useT();
  return (
    <form method="post" action="/panel/go-live/test-provider" class="form--inline" data-once>
      <CsrfField token={props.csrf} />
      <button type="submit" class="button button--secondary button--small">
        {t("panel.goLive.test", { provider: props.provider })}
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
  const { provider, usableApiKeys, enabledWebhookEndpoints, businessDetails, smtp } =
    props.checklist;
  const tr = useT();
  const { t } = tr;
  return (
    <Card title={t("panel.goLive.title")} id="go-live">
      <p>
        {props.paid ? t("panel.goLive.paid") : t("panel.goLive.empty", { days: CHART_DAYS })}
      </p>
      <ol class="qs-steps">
        <Step
          number={1}
          title={t("panel.goLive.provider")}
          done={provider.lastSuccessAt !== null}
          link={{ href: "/panel/developers", label: t("panel.goLive.providerLink") }}
          extra={
            <>
              {props.connectionTest && (
                <ConnectionTestResult
                  test={props.connectionTest}
                  provider={provider.displayName}
                />
              )}
              <TestConnectionForm csrf={props.csrf} provider={provider.displayName} />
            </>
          }
        >
          {providerText(tr, provider)}. {provider.lastSuccessAt === null
            ? t("panel.goLive.providerNever")
            : t("panel.goLive.providerLast", { at: toIso(provider.lastSuccessAt) })}
        </Step>
        <Step
          number={2}
          title={t("panel.goLive.key")}
          done={usableApiKeys > 0}
          link={{ href: "/panel/developers/api-keys", label: t("panel.goLive.keyLink") }}
        >
          {usableApiKeys === 0
            ? t("panel.goLive.keyNone")
            : t("panel.goLive.keys", { count: usableApiKeys })}
        </Step>
        <Step
          number={3}
          title={t("panel.goLive.webhook")}
          done={enabledWebhookEndpoints > 0}
          link={{ href: WEBHOOKS_HREF, label: t("panel.goLive.webhookLink") }}
        >
          {enabledWebhookEndpoints === 0
            ? t("panel.goLive.webhookNone")
            : t("panel.goLive.webhooks", { count: enabledWebhookEndpoints })}
        </Step>
        <Step
          number={4}
          title={t("panel.goLive.business")}
          done={businessDetails}
          link={{ href: "/panel/team#business-details", label: t("panel.goLive.business") }}
        >
          {businessDetails ? t("panel.goLive.businessSet") : t("panel.goLive.businessNone")}
        </Step>
      </ol>
      <p>{smtp ? t("panel.goLive.smtpOn") : t("panel.goLive.smtpOff")}</p>
      <p class="actions">
        <a class="button button--primary" href="/panel/offers/new">
          {t("panel.goLive.createOffer")}
        </a>
      </p>
    </Card>
  );
}
