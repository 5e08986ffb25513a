import { Island } from "../../../components/Island.tsx";
import type { DeliveryLogWords } from "../../../components/panel/DeliveryLog.tsx";
import { useT } from "../../../components/panel/i18n.ts";
import type { Translator } from "../../../lib/i18n/mod.ts";
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
import { disabledText, eventsText, SIGNATURE_HEADER } from "./pages.tsx";
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

/** The delivery log's words, for its island. */
function deliveryLogWords(tr: Translator): DeliveryLogWords {
  const { t } = tr;
  return {
    language: tr.language,
    status: {
      PENDING: t("panel.webhooks.log.status.PENDING"),
      SUCCEEDED: t("panel.webhooks.log.status.SUCCEEDED"),
      FAILED: t("panel.webhooks.log.status.FAILED"),
      CANCELED: t("panel.webhooks.log.status.CANCELED"),
    },
    attempts: {
      one: t("panel.webhooks.log.attempts.one"),
      few: t("panel.webhooks.log.attempts.few"),
      many: t("panel.webhooks.log.attempts.many"),
      other: t("panel.webhooks.log.attempts.other"),
    },
    notAttempted: t("panel.webhooks.log.notAttempted"),
    trigger: {
      TEST: t("panel.webhooks.log.trigger.TEST"),
      RESEND: t("panel.webhooks.log.trigger.RESEND"),
      RECOVERY: t("panel.webhooks.log.trigger.RECOVERY"),
    },
    event: t("panel.webhooks.log.event"),
    delivery: t("panel.webhooks.log.delivery"),
    nextAttempt: t("panel.webhooks.log.nextAttempt"),
    inProgress: t("panel.webhooks.log.inProgress"),
    noneFinal: t("panel.webhooks.log.noneFinal"),
    noAttempt: t("panel.webhooks.log.noAttempt"),
    resend: t("panel.webhooks.log.resend"),
    none: t("panel.webhooks.log.none"),
    noneText: t("panel.webhooks.log.noneText"),
    older: t("panel.webhooks.log.older"),
    attemptsCaption: t("panel.webhooks.log.attemptsCaption"),
    started: t("panel.webhooks.log.started"),
    result: t("panel.webhooks.log.result"),
    latency: t("panel.webhooks.log.latency"),
    response: t("panel.webhooks.log.response"),
    empty: t("panel.webhooks.log.empty"),
  };
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
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader
        title={t("panel.webhooks.page.title")}
        back={{ href: WEBHOOKS_HREF, label: t("panel.webhooks.title") }}
        description={<code class="mono">{endpoint.url}</code>}
        actions={
          <form method="post" action={`${here}/test`} class="inline-form" data-once>
            <CsrfField token={props.csrf} />
            <button type="submit" class="button button--secondary">
              {t("panel.webhooks.page.test")}
            </button>
          </form>
        }
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      {endpoint.enabled === 0 && (
        <Notice tone="warning" title={t("panel.webhooks.page.disabledTitle")}>
          <p>
            {disabledText(tr, endpoint.disabled_reason)}
            {endpoint.disabled_at && (
              <>
                , <DateTime at={endpoint.disabled_at} />
              </>
            )}. {t("panel.webhooks.page.disabledText")}
          </p>
        </Notice>
      )}
      <div class="grid grid--2">
        <Card title={t("panel.webhooks.page.secret")} id="secret">
          <p>
            {t("panel.webhooks.page.signatureHeader")}{" "}
            <code class="strong">{SIGNATURE_HEADER}</code>
          </p>
          {props.secret
            ? (
              <>
                <OnceValue
                  id="signing-secret"
                  value={props.secret}
                  label={t(
                    props.rotated ? "panel.webhooks.page.newSecret" : "panel.webhooks.page.secret",
                  )}
                />
                {props.previousUntil && (
                  <p class="muted small">
                    {t("panel.webhooks.page.previousUntil")}{" "}
                    <DateTime at={Date.parse(props.previousUntil)} />
                    {t("panel.webhooks.page.previousUntilEnd")}
                  </p>
                )}
              </>
            )
            : (
              <form method="post" action={`${here}/secret`} class="inline-form">
                <CsrfField token={props.csrf} />
                <code class="masked" aria-label={t("panel.webhooks.page.hidden")}>
                  whsec_••••••••••••••••
                </code>
                <button type="submit" class="button button--small button--secondary">
                  {t("panel.webhooks.page.reveal")}
                </button>
              </form>
            )}
          <div class="actions">
            <ConfirmAction
              action={`${here}/rotate`}
              csrf={props.csrf}
              label={t("panel.webhooks.page.rotate")}
              confirmLabel={t("panel.webhooks.page.rotateConfirm")}
              tone="default"
            >
              {t("panel.webhooks.page.rotateText")}
            </ConfirmAction>
          </div>
        </Card>
        <Card title={t("panel.webhooks.page.settings")} id="settings">
          <Facts>
            <Fact label={t("panel.webhooks.page.status")}>
              {endpoint.enabled === 1
                ? <StatusBadge status="ENABLED" label={t("panel.webhooks.enabled")} />
                : <StatusBadge status="DISABLED" label={t("panel.webhooks.disabledBadge")} />}
            </Fact>
            <Fact label={t("panel.webhooks.page.events")}>{eventsText(tr, resource.events)}</Fact>
            <Fact label={t("panel.webhooks.page.description")}>
              {resource.description ?? "—"}
            </Fact>
            <Fact label={t("panel.webhooks.page.id")}>
              <Id>{resource.id}</Id>
            </Fact>
            <Fact label={t("panel.webhooks.page.created")}>
              <DateTime at={endpoint.created_at} />
            </Fact>
          </Facts>
          <div class="actions">
            <a class="button button--small button--secondary" href={`${here}/edit`}>
              {t("panel.webhooks.page.edit")}
            </a>
            {endpoint.enabled === 1
              ? (
                <ConfirmAction
                  action={`${here}/disable`}
                  csrf={props.csrf}
                  label={t("panel.webhooks.page.disable")}
                  confirmLabel={t("panel.webhooks.page.disableConfirm")}
                >
                  {t("panel.webhooks.page.disableText")}
                </ConfirmAction>
              )
              : (
                <form method="post" action={`${here}/enable`} class="inline-form" data-once>
                  <CsrfField token={props.csrf} />
                  <button type="submit" class="button button--small button--primary">
                    {t("panel.webhooks.page.enable")}
                  </button>
                </form>
              )}
            <ConfirmAction
              action={`${here}/delete`}
              csrf={props.csrf}
              label={t("panel.webhooks.page.delete")}
              confirmLabel={t("panel.webhooks.page.deleteConfirm")}
            >
              {t("panel.webhooks.page.deleteText")}
            </ConfirmAction>
          </div>
        </Card>
      </div>
      {endpoint.enabled === 1 && (
        <Card title={t("panel.webhooks.page.recover")} id="recover">
          <RecoverEventsForm
            action={`${here}/recover`}
            csrf={props.csrf}
            since={props.recover.since}
            until={props.recover.until}
            problem={props.recover.problem}
          />
        </Card>
      )}
      <Card title={t("panel.webhooks.page.log")} id="log">
        <Island
          name="LiveDeliveryLog"
          props={{
            endpointHref: here,
            resendable: endpoint.enabled === 1,
            csrf: props.csrf,
            deliveries: log.deliveries,
            olderCursor: log.olderCursor,
            live: props.newest,
            words: deliveryLogWords(tr),
          }}
        />
      </Card>
      <Card title={t("panel.webhooks.page.verify")} id="verify">
        <p>{t("panel.webhooks.page.verifyText")}</p>
        <CodeBlock id="verify-snippet" label="Node, Deno or Bun" code={verificationSnippet()} />
      </Card>
    </>
  );
}
