import { Hono } from "hono";
import { Island } from "../../components/Island.tsx";
import {
  Card,
  CodeBlock,
  CsrfField,
  DateTime,
  EmptyState,
  Field,
  FormError,
  Id,
  Money,
  Notice,
  PageHeader,
  StatusBadge,
} from "../../components/panel/ui.tsx";
import {
  embedUrl,
  getCheckoutSession,
  listCheckoutSessions,
  ownOrigin,
} from "../../lib/checkout/mod.ts";
import { createPreviewSession, PREVIEW_METADATA } from "../../lib/checkout/preview.ts";
import { CheckoutSettings } from "../../lib/checkout/schemas.ts";
import { getCheckoutSettings, putCheckoutSettings } from "../../lib/checkout/settings.ts";
import type { Services } from "../../lib/context.ts";
import { formatMoney } from "../../lib/money.ts";
import { parseRequest } from "../../lib/panel/forms.ts";
import { listOffers } from "../../lib/offers.ts";
import { orgCtx, type PanelContext, type PanelEnv } from "./kit/context.ts";
import {
  attempt,
  field,
  type Form,
  type FormProblem,
  noticeOf,
  readForm,
  redirectWith,
} from "./kit/forms.ts";
import { renderPanel } from "./kit/render.tsx";

const BASE = "/panel/developers/checkout";
/** The preview page: the `embedLink` of every preview session. */
export const PREVIEW_PATH = `${BASE}/preview`;

const NOTICES = {
  saved: "Allowlist saved. It applies to the next page load of every session.",
} as const;

/** The allowlist as the textarea holds it: one origin per line. */
function originsFromText(text: string): string[] {
  return text.split(/[\r\n,]+/).map((line) => line.trim()).filter((line) => line !== "");
}

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

/** Developers -> Checkout sessions: the frame-ancestors allowlist, sessions and a live preview. */
export function createCheckoutPages(services: Services): Hono<PanelEnv> {
  const { config } = services;
  const sandbox = services.environment === "sandbox";

  const mainPage = async (
    c: PanelContext,
    values: Form | null,
    problem: FormProblem | null,
    status = 200,
  ) => {
    const ctx = orgCtx(c);
    const session = c.get("session");
    const settings = await getCheckoutSettings(ctx);
    const status_ = c.req.query("status");
    const filter = status_ === "OPEN" || status_ === "COMPLETED" || status_ === "EXPIRED"
      ? status_
      : undefined;
    const sessions = await listCheckoutSessions(ctx, {
      limit: 20,
      status: filter,
      startingAfter: c.req.query("startingAfter"),
    });
    const offers = await listOffers(ctx, { limit: 100, active: "true" });
    const notice = noticeOf(c, NOTICES);
    const text = values ? field(values, "origins") : settings.allowedOrigins.join("\n");
    return renderPanel(services, c, {
      title: "Checkout sessions",
      current: "checkout",
      status,
      body: (
        <>
          <PageHeader
            title="Checkout sessions"
            description="Embedded checkout: an iframe on your page, for one session of an offer."
          />
          {notice && <Notice tone="success">{notice}</Notice>}
          <div class="grid grid--2">
            <Card title="Where checkout may be embedded" id="allowlist">
              <p>
                The checkout page sends <code>Content-Security-Policy: frame-ancestors</code>{" "}
                with the origin of the session's{" "}
                <code>embedLink</code>, which must be listed here; browsers refuse to show it on any
                other page. Removing an origin stops its open sessions from loading.
              </p>
              <form method="post" action={`${BASE}/origins`} class="form" data-once>
                <CsrfField token={session.csrfToken} />
                <FormError message={problem?.param === null ? problem.message : null} />
                <Field
                  name="origins"
                  label="Allowed origins, one per line"
                  hint={sandbox
                    ? "scheme://host[:port], no path: https://shop.example. http:// only for localhost in the sandbox. At most 20."
                    : "https://host[:port], no path: https://shop.example. At most 20."}
                  error={problem && problem.param !== null ? problem.message : null}
                >
                  {(attrs) => (
                    <textarea {...attrs} rows={5} class="mono" placeholder="https://shop.example">
                      {text}
                    </textarea>
                  )}
                </Field>
                <button type="submit" class="button button--primary">Save allowlist</button>
              </form>
            </Card>
            <Card title="Live preview" id="preview">
              {sandbox
                ? (
                  offers.data.length === 0
                    ? (
                      <EmptyState title="No active offer to preview">
                        <p>
                          <a href="/panel/offers/new">Create an offer</a> first.
                        </p>
                      </EmptyState>
                    )
                    : (
                      <form method="post" action={PREVIEW_PATH} class="form" data-once>
                        <CsrfField token={session.csrfToken} />
                        <p>
                          Opens a real sandbox session embedded right here, with the same embed.js
                          your page uses, and shows the messages it sends. The panel's own origin
                          ({ownOrigin(services)}) is allowed for preview sessions only; your
                          allowlist is unchanged.
                        </p>
                        <Field name="qrId" label="Offer">
                          {(attrs) => (
                            <select {...attrs}>
                              {offers.data.map((offer) => (
                                <option value={offer.public_id}>
                                  {offer.name} ({formatMoney(offer.amount, offer.currency)})
                                </option>
                              ))}
                            </select>
                          )}
                        </Field>
                        <button type="submit" class="button button--primary">Open preview</button>
                      </form>
                    )
                )
                : (
                  <p>
                    Previews run in the sandbox, so no real money can move:{" "}
                    <a href={`${config.sandboxPublicUrl}${BASE}`}>
                      open the sandbox's checkout page
                    </a>.
                  </p>
                )}
            </Card>
          </div>
          <Card title="Embed it on your page" id="embed">
            <CodeBlock id="embed-snippet" label="HTML" code={embedSnippet(config.publicUrl)} />
          </Card>
          <Card
            title="Recent sessions"
            id="sessions"
            actions={
              <nav class="segmented" aria-label="Status">
                {[undefined, "OPEN", "COMPLETED", "EXPIRED"].map((value) => (
                  <a
                    href={value ? `${BASE}?status=${value}#sessions` : `${BASE}#sessions`}
                    class={`segmented__item ${filter === value ? "segmented__item--on" : ""}`}
                    aria-current={filter === value ? "true" : undefined}
                  >
                    {value ? value.charAt(0) + value.slice(1).toLowerCase() : "All"}
                  </a>
                ))}
              </nav>
            }
          >
            {sessions.data.length === 0
              ? (
                <EmptyState title="No sessions">
                  <p>
                    Your server creates them with{" "}
                    <code>POST /api/v1/checkout-sessions/{"{qrId}"}</code>.
                  </p>
                </EmptyState>
              )
              : (
                <div class="table-wrap">
                  <table class="table">
                    <caption class="visually-hidden">Checkout sessions</caption>
                    <thead>
                      <tr>
                        <th scope="col">Session</th>
                        <th scope="col" class="num">Amount</th>
                        <th scope="col">Status</th>
                        <th scope="col">Embedded on</th>
                        <th scope="col">Payment</th>
                        <th scope="col">Expires</th>
                      </tr>
                    </thead>
                    <tbody>
                      {sessions.data.map((row) => {
                        const preview = (JSON.parse(row.metadata) as Record<string, string>)
                          .paysteadPreview === PREVIEW_METADATA.paysteadPreview;
                        return (
                          <tr>
                            <td>
                              <Id>{row.public_id}</Id>
                              <span class="muted small block">{row.offer_name}</span>
                            </td>
                            <td class="num">
                              <Money amount={row.amount} currency={row.currency} />
                            </td>
                            <td>
                              <StatusBadge status={row.status} />
                            </td>
                            <td>
                              {preview
                                ? <span class="tag">panel preview</span>
                                : <code class="mono">{row.embed_origin}</code>}
                            </td>
                            <td>
                              {row.payment_public_id
                                ? (
                                  <a href={`/panel/payments/${row.payment_public_id}`}>
                                    <StatusBadge status={row.payment_status ?? "PENDING"} />
                                  </a>
                                )
                                : <span class="muted">—</span>}
                            </td>
                            <td>
                              <DateTime at={row.expires_at} />
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              )}
            {sessions.hasMore && (
              <p class="pager">
                <a
                  href={`${BASE}?${new URLSearchParams({
                    ...(filter && { status: filter }),
                    startingAfter: sessions.data.at(-1)!.public_id,
                  })}#sessions`}
                >
                  Older sessions →
                </a>
              </p>
            )}
          </Card>
        </>
      ),
    });
  };

  return new Hono<PanelEnv>()
    .get(BASE, (c) => mainPage(c, null, null))
    .post(`${BASE}/origins`, async (c) => {
      const form = await readForm(c);
      const result = await attempt(() =>
        putCheckoutSettings(
          orgCtx(c),
          parseRequest(CheckoutSettings, {
            allowedOrigins: originsFromText(field(form, "origins")),
          }),
        )
      );
      if (!result.ok) return mainPage(c, form, result.problem, result.problem.status);
      return redirectWith(c, BASE, "saved");
    })
    .post(PREVIEW_PATH, async (c) => {
      const form = await readForm(c);
      const preview = await createPreviewSession(
        orgCtx(c),
        field(form, "qrId"),
        `${config.publicUrl}${PREVIEW_PATH}`,
      );
      return c.redirect(`${PREVIEW_PATH}?session=${preview.public_id}`, 303);
    })
    .get(PREVIEW_PATH, async (c) => {
      const sessionId = c.req.query("session") ?? "";
      const session = await getCheckoutSession(orgCtx(c), sessionId);
      const url = embedUrl(config.publicUrl, session.public_id);
      return renderPanel(services, c, {
        title: "Checkout preview",
        current: "checkout",
        scripts: ["embed.js"],
        // NOTE: this page alone may frame this origin (the checkout iframe); it stays unframeable.
        frameSelf: true,
        body: (
          <>
            <PageHeader
              title="Checkout preview"
              back={{ href: BASE, label: "Checkout sessions" }}
              actions={
                <form method="post" action={PREVIEW_PATH} class="inline-form" data-once>
                  <CsrfField token={c.get("session").csrfToken} />
                  <input type="hidden" name="qrId" value={session.qr_id} />
                  <button type="submit" class="button button--secondary">
                    New preview session
                  </button>
                </form>
              }
              description={
                <>
                  Session <Id>{session.public_id}</Id> · {session.offer_name} ·{" "}
                  <StatusBadge status={session.status} /> · expires{" "}
                  <DateTime at={session.expires_at} />
                </>
              }
            />
            <Island
              name="CheckoutPreview"
              props={{ embedUrl: url, sessionId: session.public_id }}
            />
            <p class="muted small">
              The session is real: it creates payments and sends events and webhooks like any other
              sandbox session, with <code>metadata.paysteadPreview = "true"</code>{" "}
              so your handler can tell.
            </p>
          </>
        ),
      });
    });
}
