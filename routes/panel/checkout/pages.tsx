import { Island } from "../../../components/Island.tsx";
import { moneyText, rich, useT } from "../../../components/panel/i18n.ts";
import {
  Card,
  CodeBlock,
  CsrfField,
  DateTime,
  EmptyState,
  Field,
  FormError,
  Id,
  Notice,
  PageHeader,
  StatusBadge,
} from "../../../components/panel/ui.tsx";
import type { CheckoutSessionRecord } from "../../../lib/checkout/mod.ts";
import type { CheckoutSettingsOverview } from "../../../lib/panel/checkout_settings.ts";
import type { OfferRow } from "../../../db/schema.ts";
import type { FormProblem } from "../kit/forms.ts";
import { CHECKOUT_SETTINGS_HREF as BASE, PREVIEW_HREF } from "./href.ts";
import { SessionsCard } from "./sessions_card.tsx";

function embedSnippet(publicUrl: string): string {
  return `<div id="checkout"></div>
<script src="${publicUrl}/static/embed.js"></script>
<script>
  Paystead.mountCheckout("#checkout", {
    embedUrl: "...", // from POST /api/v1/checkout-sessions/{qrId}, per order
    onComplete: (message) => location.assign("/thanks?payment=" + message.paymentId),
    onExpire: () => location.reload(),
  });
</script>`;
}

function AllowlistCard(props: {
  csrf: string;
  sandbox: boolean;
  text: string;
  problem: FormProblem | null;
}) {
  const { problem } = props;
  const tr = useT();
  const { t } = tr;
  return (
    <Card title={t("panel.checkout.allowlist")} id="allowlist">
      <p>
        {rich(tr, "panel.checkout.allowlistText", {
          header: <code>Content-Security-Policy: frame-ancestors</code>,
          embedLink: <code>embedLink</code>,
        })}
      </p>
      <form method="post" action={`${BASE}/origins`} class="form" data-once>
        <CsrfField token={props.csrf} />
        <FormError message={problem?.param === null ? problem.message : null} />
        <Field
          name="origins"
          label={t("panel.checkout.origins")}
          hint={t(
            props.sandbox ? "panel.checkout.originsSandbox" : "panel.checkout.originsProduction",
          )}
          error={problem && problem.param !== null ? problem.message : null}
        >
          {(attrs) => (
            <textarea {...attrs} rows={5} class="mono" placeholder="https://shop.example">
              {props.text}
            </textarea>
          )}
        </Field>
        <button type="submit" class="button button--primary">{t("panel.checkout.save")}</button>
      </form>
    </Card>
  );
}

function PreviewCard(props: {
  csrf: string;
  offers: OfferRow[];
  ownOrigin: string;
  /** The sandbox's checkout page, where production sends people to preview; null in the sandbox. */
  sandboxPageUrl: string | null;
}) {
  const tr = useT();
  const { t } = tr;
  if (props.sandboxPageUrl !== null) {
    return (
      <Card title={t("panel.checkout.preview")} id="preview">
        <p>
          {t("panel.checkout.previewInSandbox")}{" "}
          <a href={props.sandboxPageUrl}>{t("panel.checkout.openSandbox")}</a>.
        </p>
      </Card>
    );
  }
  return (
    <Card title={t("panel.checkout.preview")} id="preview">
      {props.offers.length === 0
        ? (
          <EmptyState title={t("panel.checkout.noOffer")}>
            <p>
              <a href="/panel/offers/new">{t("panel.checkout.createOffer")}</a>
              {t("panel.checkout.first")}
            </p>
          </EmptyState>
        )
        : (
          <form method="post" action={PREVIEW_HREF} class="form" data-once>
            <CsrfField token={props.csrf} />
            <p>{t("panel.checkout.previewText", { origin: props.ownOrigin })}</p>
            <Field name="qrId" label={t("panel.checkout.offer")}>
              {(attrs) => (
                <select {...attrs}>
                  {props.offers.map((offer) => (
                    <option value={offer.public_id}>
                      {offer.name} ({moneyText(tr, offer.amount, offer.currency)})
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" class="button button--primary">
              {t("panel.checkout.openPreview")}
            </button>
          </form>
        )}
    </Card>
  );
}

/** Developers -> Checkout sessions: the allowlist form, a live preview, the snippet, sessions. */
export function CheckoutSettingsPage(props: {
  overview: CheckoutSettingsOverview;
  csrf: string;
  notice: string | null;
  /** The allowlist as the textarea holds it: as saved, or as just submitted with a problem. */
  originsText: string;
  problem: FormProblem | null;
  sandbox: boolean;
  ownOrigin: string;
  publicUrl: string;
  sandboxPageUrl: string | null;
}) {
  const { overview } = props;
  const { t } = useT();
  return (
    <>
      <PageHeader
        title={t("panel.checkout.title")}
        description={t("panel.checkout.description")}
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      <div class="grid grid--2">
        <AllowlistCard
          csrf={props.csrf}
          sandbox={props.sandbox}
          text={props.originsText}
          problem={props.problem}
        />
        <PreviewCard
          csrf={props.csrf}
          offers={overview.offers}
          ownOrigin={props.ownOrigin}
          sandboxPageUrl={props.sandboxPageUrl}
        />
      </div>
      <Card title={t("panel.checkout.embed")} id="embed">
        <CodeBlock id="embed-snippet" label="HTML" code={embedSnippet(props.publicUrl)} />
      </Card>
      <SessionsCard
        filter={overview.filter}
        sessions={overview.sessions}
        hasMore={overview.hasMore}
      />
    </>
  );
}

/** A preview session embedded in the panel, with the messages its iframe sends. */
export function CheckoutPreviewPage(props: {
  session: CheckoutSessionRecord;
  embedUrl: string;
  csrf: string;
}) {
  const { session } = props;
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader
        title={t("panel.checkout.previewTitle")}
        back={{ href: BASE, label: t("panel.checkout.title") }}
        actions={
          <form method="post" action={PREVIEW_HREF} class="inline-form" data-once>
            <CsrfField token={props.csrf} />
            <input type="hidden" name="qrId" value={session.qr_id} />
            <button type="submit" class="button button--secondary">
              {t("panel.checkout.newPreview")}
            </button>
          </form>
        }
        description={
          <>
            {t("panel.checkout.session")} <Id>{session.public_id}</Id> · {session.offer_name} ·{" "}
            <StatusBadge status={session.status} /> · {t("panel.checkout.expires")}{" "}
            <DateTime at={session.expires_at} />
          </>
        }
      />
      <Island
        name="CheckoutPreview"
        props={{
          embedUrl: props.embedUrl,
          sessionId: session.public_id,
          words: {
            notLoaded: t("panel.checkout.island.notLoaded"),
            frameTitle: t("panel.checkout.island.frameTitle"),
            messages: t("panel.checkout.island.messages"),
            messagesText: t("panel.checkout.island.messagesText"),
            waiting: t("panel.checkout.island.waiting"),
          },
        }}
      />
      <p class="muted small">
        {rich(tr, "panel.checkout.previewNote", {
          metadata: <code>metadata.paysteadPreview = "true"</code>,
        })}
      </p>
    </>
  );
}
