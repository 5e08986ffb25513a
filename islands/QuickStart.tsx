/// <reference lib="dom" />
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { curlCommand, shellVariable } from "../lib/panel/curl.ts";
import type { panelQuickstart } from "../lib/i18n/en/panel_quickstart.ts";
import CopyButton from "./CopyButton.tsx";

/** The Quick Start's words in the page's language, resolved on the server (catalogues stay there). */
export type QuickStartWords = { readonly [K in keyof typeof panelQuickstart]: string };

/** A message with its `[name]` slots filled by elements (code, links). */
function fill(text: string, nodes: Record<string, ComponentChildren>): ComponentChildren[] {
  return text.split(/\[(\w+)\]/).map((part, index) => index % 2 === 1 ? nodes[part] : part);
}

/** A step the Quick Start runs against the sandbox. */
type QuickStartStepId = "key" | "offer" | "webhook" | "payment" | "checkout" | "complete";

/** What the server gives the Quick Start; no secret (the key's secret comes from a POST). */
export interface QuickStartProps {
  /** The sandbox API host the curl commands call. */
  baseUrl: string;
  runUrl: string;
  watchUrl: string;
  referenceUrl: string;
  webhooksUrl: string;
  paymentsUrl: string;
  /** The panel's checkout preview page, where the Quick Start's session is embedded. */
  previewUrl: string;
  /** The receiver set up earlier, if any (the steps after it can start from there). */
  receiver: { endpointId: string; url: string } | null;
  offerRequest: Record<string, unknown>;
  /** Step 5's request body: its embedLink's origin goes on the allowlist when the step runs. */
  checkoutRequest: { embedLink: string };
  /** The allowlist a terminal PUTs before step 5's curl; null when its origin is on it. */
  allowlistRequest: { allowedOrigins: string[] } | null;
  code: string;
  words: QuickStartWords;
  samples: {
    offer: Record<string, unknown>;
    endpoint: Record<string, unknown>;
    payment: Record<string, unknown>;
    session: Record<string, unknown>;
    completed: Record<string, unknown>;
  };
}

interface RunResult {
  status: number;
  request: { method: string; path: string; body?: unknown };
  response: Record<string, unknown>;
  /** Only for the key step: the new key's secret, shown once. */
  secret?: string;
}

interface WatchedDelivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: {
    number: number;
    responseStatus: number | null;
    durationMs: number | null;
    succeeded: boolean;
    errorMessage: string | null;
  }[];
}

interface WatchedRequest {
  receivedAt: string;
  eventType: string | null;
  webhookId: string | null;
  verified: boolean;
  verification: string;
}

interface Watch {
  deliveries: WatchedDelivery[];
  inbox: WatchedRequest[];
}

const POLL_MS = 1500;
const WATCH_FOR_MS = 120_000;

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";
}

async function postJson(url: string, body: unknown): Promise<RunResult> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      "X-CSRF-Token": csrfToken(),
    },
    body: JSON.stringify(body),
  });
  const payload = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Error(
      payload?.error?.message ?? `The sandbox answered ${response.status}; try again.`,
    );
  }
  return payload as RunResult;
}

function Snippet(props: { id: string; label: string; code: string; words: QuickStartWords }) {
  const w = props.words;
  return (
    <div class="code">
      <div class="code__bar">
        <span class="code__label">{props.label}</span>
        <CopyButton
          target={props.id}
          label={w["panel.qs.copy"]}
          copiedLabel={w["panel.qs.copied"]}
          selectLabel={w["panel.qs.select"]}
        />
      </div>
      {/* A long line scrolls: the block takes focus, named by its label, so a keyboard can too. */}
      <pre tabIndex={0} role="group" aria-label={props.label}>
        <code id={props.id}>{props.code}</code>
      </pre>
    </div>
  );
}

function Json(props: { label: string; value: unknown; live?: boolean }) {
  return (
    <div class={`code code--json ${props.live ? "code--live" : ""}`}>
      <div class="code__bar">
        <span class="code__label">{props.label}</span>
      </div>
      <pre tabIndex={0} role="group" aria-label={props.label}>
        <code>{JSON.stringify(props.value, null, 2)}</code>
      </pre>
    </div>
  );
}

function Step(props: {
  number: number;
  title: string;
  done: boolean;
  running: boolean;
  blockedBy: string | null;
  onRun?: () => void;
  runLabel?: string;
  error: string | null;
  words: QuickStartWords;
  children: ComponentChildren;
}) {
  const w = props.words;
  return (
    <li class={`qs-step ${props.done ? "qs-step--done" : ""}`}>
      <div class="qs-step__head">
        <span class="qs-step__number" aria-hidden="true">{props.done ? "✓" : props.number}</span>
        <h2 class="qs-step__title">
          <span class="visually-hidden">
            {w[props.done ? "panel.qs.stepDone" : "panel.qs.step"].replace(
              "[number]",
              String(props.number),
            )}
          </span>{" "}
          {props.title}
        </h2>
        {props.onRun && (
          <button
            type="button"
            class={`button button--small ${props.done ? "button--secondary" : "button--primary"}`}
            onClick={props.onRun}
            disabled={props.running || props.blockedBy !== null}
          >
            {props.running
              ? w["panel.qs.running"]
              : props.done
              ? w["panel.qs.runAgain"]
              : (props.runLabel ?? w["panel.qs.run"])}
          </button>
        )}
      </div>
      {props.blockedBy && !props.done && <p class="qs-step__blocked">{props.blockedBy}</p>}
      {props.error && <p class="field__error" role="alert">{props.error}</p>}
      <div class="qs-step__body">{props.children}</div>
    </li>
  );
}

function statusLine(words: QuickStartWords, result: RunResult): string {
  return words["panel.qs.response"].replace("[status]", String(result.status));
}

function sampleLine(words: QuickStartWords, status: number): string {
  return words["panel.qs.sample"].replace("[status]", String(status));
}

/**
 * The interactive Quick Start: each step runs one call against this organisation's sandbox
 * through the panel (the same functions the API uses), shows the equivalent curl with real ids,
 * the request and the response, and links to the operation in the API reference. It ends
 * watching the payment's webhooks arrive at the sandbox's built-in inbox.
 */
export default function QuickStart(props: QuickStartProps) {
  const [results, setResults] = useState<Partial<Record<QuickStartStepId, RunResult>>>({});
  const [running, setRunning] = useState<QuickStartStepId | null>(null);
  const [errors, setErrors] = useState<Partial<Record<QuickStartStepId, string>>>({});
  const [watch, setWatch] = useState<Watch | null>(null);
  const [watching, setWatching] = useState(false);
  const watchStarted = useRef(0);

  const qrId = results.offer?.response.qrId as string | undefined;
  const endpointId = (results.webhook?.response.id as string | undefined) ??
    props.receiver?.endpointId;
  const paymentUrl = results.payment?.response.paymentUrl as string | undefined;
  const sessionId = results.checkout?.response.sessionId as string | undefined;
  const paidPaymentId = results.complete?.response.paymentId as string | undefined;
  const ref = (operationId: string) => `${props.referenceUrl}#${operationId}`;
  const w = props.words;

  async function run(step: QuickStartStepId, body: Record<string, unknown> = {}) {
    setRunning(step);
    setErrors((current) => ({ ...current, [step]: undefined }));
    try {
      const result = await postJson(`${props.runUrl}/${step}`, body);
      setResults((current) => ({ ...current, [step]: result }));
      if (step === "complete") startWatching();
    } catch (error) {
      setErrors((current) => ({ ...current, [step]: (error as Error).message }));
    } finally {
      setRunning(null);
    }
  }

  function startWatching() {
    watchStarted.current = Date.now();
    setWatching(true);
  }

  useEffect(() => {
    if (!watching || !endpointId) return;
    let stopped = false;
    const poll = async () => {
      try {
        const response = await fetch(
          `${props.watchUrl}?endpoint=${encodeURIComponent(endpointId)}`,
          { headers: { Accept: "application/json" } },
        );
        if (response.ok && !stopped) setWatch(await response.json());
      } catch {
        // The next poll tries again.
      }
      if (Date.now() - watchStarted.current > WATCH_FOR_MS && !stopped) setWatching(false);
    };
    poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [watching, endpointId]);

  const succeededDelivery = watch?.deliveries.find((delivery) =>
    delivery.eventType === "checkout.session.completed" && delivery.status === "SUCCEEDED"
  );
  const arrived = watch?.inbox.some((request) =>
    request.eventType === "checkout.session.completed" && request.verified
  );
  useEffect(() => {
    if (succeededDelivery && arrived) setWatching(false);
  }, [succeededDelivery?.id, arrived]);

  const keyExport = results.key?.secret
    ? `export PAYSTEAD_KEY=${results.key.secret}`
    : `# ${w["panel.qs.noKeyYet"]}`;

  return (
    <ol class="qs-steps">
      <Step
        number={1}
        title={w["panel.qs.key.title"]}
        words={w}
        done={results.key !== undefined}
        running={running === "key"}
        blockedBy={null}
        onRun={() => run("key")}
        runLabel={w["panel.qs.key.run"]}
        error={errors.key ?? null}
      >
        <p>
          {fill(w["panel.qs.key.text"], {
            auth: <code>Authorization: Bearer</code>,
            prefix: <code>sk_sandbox_</code>,
          })}
        </p>
        {results.key?.secret && (
          <div class="once" role="status">
            <p class="once__label">
              {fill(w["panel.qs.key.once"], { env: <code>.env</code> })}
            </p>
            <div class="once__row">
              <code class="once__value" id="qs-secret">{results.key.secret}</code>
              <CopyButton
                target="qs-secret"
                label={w["panel.qs.copy"]}
                copiedLabel={w["panel.qs.copied"]}
                selectLabel={w["panel.qs.select"]}
              />
            </div>
          </div>
        )}
        <Snippet
          id="qs-curl-key"
          label={w["panel.qs.shell"]}
          words={w}
          code={`${keyExport}\n${curlCommand(props.baseUrl, "GET", "/api/v1/qr?limit=1")}`}
        />
        <p class="qs-step__links">
          <a href={ref("listOffers")}>{w["panel.qs.key.ref"]}</a>
          {" · "}
          <a href="/panel/developers/api-keys">{w["panel.qs.key.manage"]}</a>
        </p>
      </Step>

      <Step
        number={2}
        title={w["panel.qs.offer.title"]}
        words={w}
        done={results.offer !== undefined}
        running={running === "offer"}
        blockedBy={null}
        onRun={() => run("offer")}
        error={errors.offer ?? null}
      >
        <p>
          {fill(w["panel.qs.offer.text"], { qrId: <code>qrId</code>, amount: <code>1250</code> })}
        </p>
        <Snippet
          id="qs-curl-offer"
          label="curl"
          words={w}
          code={curlCommand(props.baseUrl, "POST", "/api/v1/qr", props.offerRequest, {
            variable: "QR_ID",
            field: "qrId",
          })}
        />
        <div class="qs-grid">
          <Json label={w["panel.qs.requestBody"]} value={props.offerRequest} />
          <Json
            label={results.offer ? statusLine(w, results.offer) : sampleLine(w, 201)}
            value={results.offer?.response ?? props.samples.offer}
            live={results.offer !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("createOffer")}>{w["panel.qs.offer.ref"]}</a>
        </p>
      </Step>

      <Step
        number={3}
        title={w["panel.qs.webhook.title"]}
        words={w}
        done={endpointId !== undefined}
        running={running === "webhook"}
        blockedBy={null}
        onRun={() => run("webhook")}
        runLabel={w[props.receiver ? "panel.qs.webhook.check" : "panel.qs.webhook.setUp"]}
        error={errors.webhook ?? null}
      >
        <p>
          {fill(w["panel.qs.webhook.text"], {
            signature: <code>webhook-signature</code>,
            webhooks: <a href={props.webhooksUrl}>{w["panel.qs.webhook.webhooks"]}</a>,
          })}
        </p>
        <Snippet
          id="qs-curl-webhook"
          label="curl"
          words={w}
          code={curlCommand(props.baseUrl, "POST", "/api/v1/webhook-endpoints", {
            url: (results.webhook?.response.url as string | undefined) ??
              props.receiver?.url ?? "https://your-server.example/webhooks/paystead",
            events: ["*"],
          })}
        />
        <div class="qs-grid">
          <Json
            label={results.webhook ? statusLine(w, results.webhook) : sampleLine(w, 201)}
            value={results.webhook?.response ?? props.samples.endpoint}
            live={results.webhook !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("createWebhookEndpoint")}>{w["panel.qs.webhook.ref"]}</a>
          {endpointId && (
            <>
              {" · "}
              <a href={`${props.webhooksUrl}/${endpointId}`}>{w["panel.qs.webhook.log"]}</a>
            </>
          )}
        </p>
      </Step>

      <Step
        number={4}
        title={w["panel.qs.payment.title"]}
        words={w}
        done={results.payment !== undefined}
        running={running === "payment"}
        blockedBy={qrId ? null : w["panel.qs.needOffer"]}
        onRun={() => run("payment", { qrId })}
        error={errors.payment ?? null}
      >
        <p>{fill(w["panel.qs.payment.text"], { paymentUrl: <code>paymentUrl</code> })}</p>
        <Snippet
          id="qs-curl-payment"
          label="curl"
          words={w}
          code={curlCommand(props.baseUrl, "POST", "/api/v1/payments", {
            qrId: qrId ?? shellVariable("QR_ID"),
          })}
        />
        <div class="qs-grid">
          <Json label={w["panel.qs.requestBody"]} value={{ qrId: qrId ?? "qr_..." }} />
          <Json
            label={results.payment ? statusLine(w, results.payment) : sampleLine(w, 201)}
            value={results.payment?.response ?? props.samples.payment}
            live={results.payment !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("createPayment")}>{w["panel.qs.payment.ref"]}</a>
          {paymentUrl && (
            <>
              {" · "}
              <a href={paymentUrl} target="_blank" rel="noopener">
                {w["panel.qs.payment.open"]}
              </a>
            </>
          )}
        </p>
      </Step>

      <Step
        number={5}
        title={w["panel.qs.checkout.title"]}
        words={w}
        done={results.checkout !== undefined}
        running={running === "checkout"}
        blockedBy={qrId ? null : w["panel.qs.needOffer"]}
        onRun={() => run("checkout", { qrId })}
        error={errors.checkout ?? null}
      >
        <p>
          {fill(w["panel.qs.checkout.text"], {
            embedUrl: <code>embedUrl</code>,
            embedJs: <code>embed.js</code>,
            embedLink: <code>embedLink</code>,
            allowlist: <a href="/panel/developers/checkout">{w["panel.qs.checkout.allowlist"]}</a>,
            origin: <code>{new URL(props.checkoutRequest.embedLink).origin}</code>,
          })}
        </p>
        <Snippet
          id="qs-curl-checkout"
          label="curl"
          words={w}
          code={[
            // Running the step puts the origin there; a terminal does it first, keeping the rest.
            ...(props.allowlistRequest && !results.checkout
              ? [
                curlCommand(
                  props.baseUrl,
                  "PUT",
                  "/api/v1/checkout-settings",
                  props.allowlistRequest,
                ),
              ]
              : []),
            curlCommand(
              props.baseUrl,
              "POST",
              `/api/v1/checkout-sessions/${qrId ?? shellVariable("QR_ID")}`,
              props.checkoutRequest,
              { variable: "SESSION_ID", field: "sessionId" },
            ),
          ].join("\n")}
        />
        <div class="qs-grid">
          <Json label={w["panel.qs.requestBody"]} value={props.checkoutRequest} />
          <Json
            label={results.checkout ? statusLine(w, results.checkout) : sampleLine(w, 201)}
            value={results.checkout?.response ?? props.samples.session}
            live={results.checkout !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("createCheckoutSession")}>{w["panel.qs.checkout.ref"]}</a>
          {sessionId && (
            <>
              {" · "}
              <a href={`${props.previewUrl}?session=${sessionId}`}>
                {w["panel.qs.checkout.see"]}
              </a>
            </>
          )}
        </p>
      </Step>

      <Step
        number={6}
        title={w["panel.qs.complete.title"].replace("[code]", props.code)}
        words={w}
        done={results.complete !== undefined}
        running={running === "complete"}
        blockedBy={sessionId ? null : w["panel.qs.complete.blocked"]}
        onRun={() => run("complete", { sessionId })}
        error={errors.complete ?? null}
      >
        <p>
          {fill(w["panel.qs.complete.text"], {
            succeeds: <code>777</code>,
            declined: <code>500500</code>,
          })}
        </p>
        <Snippet
          id="qs-curl-complete"
          label="curl"
          words={w}
          code={curlCommand(
            props.baseUrl,
            "POST",
            `/api/v1/checkout-sessions/${sessionId ?? shellVariable("SESSION_ID")}/complete`,
            { code: props.code },
          )}
        />
        <div class="qs-grid">
          <Json label={w["panel.qs.requestBody"]} value={{ code: props.code }} />
          <Json
            label={results.complete ? statusLine(w, results.complete) : sampleLine(w, 200)}
            value={results.complete?.response ?? props.samples.completed}
            live={results.complete !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("completeCheckoutSession")}>{w["panel.qs.complete.ref"]}</a>
          {paidPaymentId && (
            <>
              {" · "}
              <a href={`${props.paymentsUrl}/${paidPaymentId}`}>
                {w["panel.qs.complete.payment"]}
              </a>
            </>
          )}
        </p>
      </Step>

      <li class={`qs-step ${succeededDelivery && arrived ? "qs-step--done" : ""}`}>
        <div class="qs-step__head">
          <span class="qs-step__number" aria-hidden="true">
            {succeededDelivery && arrived ? "✓" : 7}
          </span>
          <h2 class="qs-step__title">
            <span class="visually-hidden">{w["panel.qs.step"].replace("[number]", "7")}</span>{" "}
            {w["panel.qs.watch.title"]}
          </h2>
          <button
            type="button"
            class="button button--small button--secondary"
            onClick={startWatching}
            disabled={!endpointId || watching}
          >
            {w[watching ? "panel.qs.watch.watching" : "panel.qs.watch.watch"]}
          </button>
        </div>
        {!endpointId && <p class="qs-step__blocked">{w["panel.qs.watch.blocked"]}</p>}
        <div class="qs-step__body">
          <p>
            {fill(w["panel.qs.watch.text"], {
              succeeded: <code>payment.succeeded</code>,
              completed: <code>checkout.session.completed</code>,
            })}
          </p>
          <div class="qs-watch" aria-live="polite">
            {watch === null
              ? <p class="muted">{w["panel.qs.watch.nothing"]}</p>
              : (
                <div class="qs-grid">
                  <div>
                    <h3 class="qs-watch__title">{w["panel.qs.watch.log"]}</h3>
                    {watch.deliveries.length === 0
                      ? <p class="muted">{w["panel.qs.watch.noDeliveries"]}</p>
                      : (
                        <ul class="qs-list">
                          {watch.deliveries.map((delivery) => {
                            const last = delivery.attempts.at(-1);
                            return (
                              <li>
                                <code>{delivery.eventType}</code>{" "}
                                <span
                                  class={`badge badge--${
                                    delivery.status === "SUCCEEDED"
                                      ? "success"
                                      : delivery.status === "FAILED"
                                      ? "danger"
                                      : "neutral"
                                  }`}
                                >
                                  {w[
                                    `panel.qs.status.${delivery.status.toLowerCase()}` as keyof QuickStartWords
                                  ] ?? delivery.status.toLowerCase()}
                                </span>
                                {last && (
                                  <span class="muted">
                                    {" "}
                                    {last.responseStatus ?? last.errorMessage} ·{" "}
                                    {last.durationMs ?? "–"} ms
                                  </span>
                                )}
                              </li>
                            );
                          })}
                        </ul>
                      )}
                  </div>
                  <div>
                    <h3 class="qs-watch__title">{w["panel.qs.watch.inbox"]}</h3>
                    {watch.inbox.length === 0
                      ? <p class="muted">{w["panel.qs.watch.nothingReceived"]}</p>
                      : (
                        <ul class="qs-list">
                          {watch.inbox.map((request) => (
                            <li>
                              <code>{request.eventType ?? w["panel.qs.watch.notEvent"]}</code>{" "}
                              <span
                                class={`badge badge--${request.verified ? "success" : "danger"}`}
                              >
                                {w[
                                  request.verified
                                    ? "panel.qs.watch.verified"
                                    : "panel.qs.watch.notVerified"
                                ]}
                              </span>
                            </li>
                          ))}
                        </ul>
                      )}
                  </div>
                </div>
              )}
            {succeededDelivery && arrived && (
              <p class="callout callout--success">
                {w["panel.qs.watch.done"]}
              </p>
            )}
          </div>
          <Snippet
            id="qs-curl-watch"
            label="curl"
            words={w}
            code={curlCommand(
              props.baseUrl,
              "GET",
              "/api/v1/events?type=checkout.session.completed&limit=1",
            )}
          />
          <p class="qs-step__links">
            <a href={ref("listEventDeliveries")}>{w["panel.qs.watch.ref"]}</a>
            {endpointId && (
              <>
                {" · "}
                <a href={`${props.webhooksUrl}/${endpointId}`}>{w["panel.qs.watch.fullLog"]}</a>
              </>
            )}
          </p>
        </div>
      </li>
    </ol>
  );
}
