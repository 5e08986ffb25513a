import { Island } from "../../../components/Island.tsx";
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
import { formatMoney } from "../../../lib/money.ts";
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
  return (
    <Card title="Where checkout may be embedded" id="allowlist">
      <p>
        The checkout page sends <code>Content-Security-Policy: frame-ancestors</code>{" "}
        with the origin of the session's{" "}
        <code>embedLink</code>, which must be listed here; browsers refuse to show it on any other
        page. Removing an origin stops its open sessions from loading.
      </p>
      <form method="post" action={`${BASE}/origins`} class="form" data-once>
        <CsrfField token={props.csrf} />
        <FormError message={problem?.param === null ? problem.message : null} />
        <Field
          name="origins"
          label="Allowed origins, one per line"
          hint={props.sandbox
            ? "scheme://host[:port], no path: https://shop.example. http:// only for localhost in the sandbox. At most 20."
            : "https://host[:port], no path: https://shop.example. At most 20."}
          error={problem && problem.param !== null ? problem.message : null}
        >
          {(attrs) => (
            <textarea {...attrs} rows={5} class="mono" placeholder="https://shop.example">
              {props.text}
            </textarea>
          )}
        </Field>
        <button type="submit" class="button button--primary">Save allowlist</button>
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
  if (props.sandboxPageUrl !== null) {
    return (
      <Card title="Live preview" id="preview">
        <p>
          Previews run in the sandbox, so no real money can move:{" "}
          <a href={props.sandboxPageUrl}>open the sandbox's checkout page</a>.
        </p>
      </Card>
    );
  }
  return (
    <Card title="Live preview" id="preview">
      {props.offers.length === 0
        ? (
          <EmptyState title="No active offer to preview">
            <p>
              <a href="/panel/offers/new">Create an offer</a> first.
            </p>
          </EmptyState>
        )
        : (
          <form method="post" action={PREVIEW_HREF} class="form" data-once>
            <CsrfField token={props.csrf} />
            <p>
              Opens a real sandbox session embedded right here, with the same embed.js your page
              uses, and shows the messages it sends. The panel's own origin ({props.ownOrigin}) is
              allowed for preview sessions only; your allowlist is unchanged.
            </p>
            <Field name="qrId" label="Offer">
              {(attrs) => (
                <select {...attrs}>
                  {props.offers.map((offer) => (
                    <option value={offer.public_id}>
                      {offer.name} ({formatMoney(offer.amount, offer.currency)})
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" class="button button--primary">Open preview</button>
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
  return (
    <>
      <PageHeader
        title="Checkout sessions"
        description="Embedded checkout: an iframe on your page, for one session of an offer."
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
      <Card title="Embed it on your page" id="embed">
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
  return (
    <>
      <PageHeader
        title="Checkout preview"
        back={{ href: BASE, label: "Checkout sessions" }}
        actions={
          <form method="post" action={PREVIEW_HREF} class="inline-form" data-once>
            <CsrfField token={props.csrf} />
            <input type="hidden" name="qrId" value={session.qr_id} />
            <button type="submit" class="button button--secondary">New preview session</button>
          </form>
        }
        description={
          <>
            Session <Id>{session.public_id}</Id> · {session.offer_name} ·{" "}
            <StatusBadge status={session.status} /> · expires <DateTime at={session.expires_at} />
          </>
        }
      />
      <Island
        name="CheckoutPreview"
        props={{ embedUrl: props.embedUrl, sessionId: session.public_id }}
      />
      <p class="muted small">
        The session is real: it creates payments and sends events and webhooks like any other
        sandbox session, with <code>metadata.paysteadPreview = "true"</code>{" "}
        so your handler can tell.
      </p>
    </>
  );
}
