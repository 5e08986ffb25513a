/// <reference lib="dom" />
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { curlCommand } from "../lib/panel/curl.ts";
import CopyButton from "./CopyButton.tsx";

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
  code: string;
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

function Snippet(props: { id: string; label: string; code: string }) {
  return (
    <div class="code">
      <div class="code__bar">
        <span class="code__label">{props.label}</span>
        <CopyButton target={props.id} label="Copy" />
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
  children: ComponentChildren;
}) {
  return (
    <li class={`qs-step ${props.done ? "qs-step--done" : ""}`}>
      <div class="qs-step__head">
        <span class="qs-step__number" aria-hidden="true">{props.done ? "✓" : props.number}</span>
        <h2 class="qs-step__title">
          <span class="visually-hidden">Step {props.number}{props.done ? " (done)" : ""}:</span>
          {" "}
          {props.title}
        </h2>
        {props.onRun && (
          <button
            type="button"
            class={`button button--small ${props.done ? "button--secondary" : "button--primary"}`}
            onClick={props.onRun}
            disabled={props.running || props.blockedBy !== null}
          >
            {props.running ? "Running…" : props.done ? "Run again" : (props.runLabel ?? "Run")}
          </button>
        )}
      </div>
      {props.blockedBy && !props.done && <p class="qs-step__blocked">{props.blockedBy}</p>}
      {props.error && <p class="field__error" role="alert">{props.error}</p>}
      <div class="qs-step__body">{props.children}</div>
    </li>
  );
}

function statusLine(result: RunResult): string {
  return `Response · ${result.status}`;
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
    : "export PAYSTEAD_KEY=sk_sandbox_...   # run step 1, or use a key you stored";

  return (
    <ol class="qs-steps">
      <Step
        number={1}
        title="Get a sandbox API key"
        done={results.key !== undefined}
        running={running === "key"}
        blockedBy={null}
        onRun={() => run("key")}
        runLabel="Create key"
        error={errors.key ?? null}
      >
        <p>
          Every API call carries a secret key as{" "}
          <code>Authorization: Bearer</code>. Sandbox keys start with <code>sk_sandbox_</code>{" "}
          and only work on the sandbox host.
        </p>
        {results.key?.secret && (
          <div class="once" role="status">
            <p class="once__label">
              Your new key, shown only now. Store it in your secrets manager or <code>.env</code>.
            </p>
            <div class="once__row">
              <code class="once__value" id="qs-secret">{results.key.secret}</code>
              <CopyButton target="qs-secret" label="Copy" />
            </div>
          </div>
        )}
        <Snippet
          id="qs-curl-key"
          label="Shell"
          code={`${keyExport}\n${curlCommand(props.baseUrl, "GET", "/api/v1/qr?limit=1")}`}
        />
        <p class="qs-step__links">
          <a href={ref("listOffers")}>API reference: list offers</a>
          {" · "}
          <a href="/panel/developers/api-keys">Manage API keys</a>
        </p>
      </Step>

      <Step
        number={2}
        title="Create an offer"
        done={results.offer !== undefined}
        running={running === "offer"}
        blockedBy={null}
        onRun={() => run("offer")}
        error={errors.offer ?? null}
      >
        <p>
          An offer is what customers pay for, named by its{" "}
          <code>qrId</code>. Amounts are in minor units: <code>1250</code> is 12.50.
        </p>
        <Snippet
          id="qs-curl-offer"
          label="curl"
          code={curlCommand(props.baseUrl, "POST", "/api/v1/qr", props.offerRequest)}
        />
        <div class="qs-grid">
          <Json label="Request body" value={props.offerRequest} />
          <Json
            label={results.offer ? statusLine(results.offer) : "Sample response · 201"}
            value={results.offer?.response ?? props.samples.offer}
            live={results.offer !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("createOffer")}>API reference: create an offer</a>
        </p>
      </Step>

      <Step
        number={3}
        title="Receive webhooks"
        done={endpointId !== undefined}
        running={running === "webhook"}
        blockedBy={null}
        onRun={() => run("webhook")}
        runLabel={props.receiver ? "Check it" : "Set up"}
        error={errors.webhook ?? null}
      >
        <p>
          Paystead tells your server what happened with signed POSTs. You don't need a public URL
          yet: the sandbox has a built-in inbox that receives them like your server would, checks
          the <code>webhook-signature</code>{" "}
          header and shows what arrived. Later, register your own URL under{" "}
          <a href={props.webhooksUrl}>Webhooks</a>.
        </p>
        <Snippet
          id="qs-curl-webhook"
          label="curl"
          code={curlCommand(props.baseUrl, "POST", "/api/v1/webhook-endpoints", {
            url: (results.webhook?.response.url as string | undefined) ??
              props.receiver?.url ?? "https://your-server.example/webhooks/paystead",
            events: ["*"],
          })}
        />
        <div class="qs-grid">
          <Json
            label={results.webhook ? statusLine(results.webhook) : "Sample response · 201"}
            value={results.webhook?.response ?? props.samples.endpoint}
            live={results.webhook !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("createWebhookEndpoint")}>API reference: create a webhook endpoint</a>
          {endpointId && (
            <>
              {" · "}
              <a href={`${props.webhooksUrl}/${endpointId}`}>Signing secret and delivery log</a>
            </>
          )}
        </p>
      </Step>

      <Step
        number={4}
        title="Take a payment"
        done={results.payment !== undefined}
        running={running === "payment"}
        blockedBy={qrId ? null : "Create the offer in step 2 first."}
        onRun={() => run("payment", { qrId })}
        error={errors.payment ?? null}
      >
        <p>
          A hosted payment link: send the customer to <code>paymentUrl</code>{" "}
          (or show the offer's QR code), where they enter a 6-digit code from their banking app.
        </p>
        <Snippet
          id="qs-curl-payment"
          label="curl"
          code={curlCommand(props.baseUrl, "POST", "/api/v1/payments", { qrId: qrId ?? "qr_..." })}
        />
        <div class="qs-grid">
          <Json label="Request body" value={{ qrId: qrId ?? "qr_..." }} />
          <Json
            label={results.payment ? statusLine(results.payment) : "Sample response · 201"}
            value={results.payment?.response ?? props.samples.payment}
            live={results.payment !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("createPayment")}>API reference: create a hosted payment link</a>
          {paymentUrl && (
            <>
              {" · "}
              <a href={paymentUrl} target="_blank" rel="noopener">
                Open the hosted payment page
              </a>
            </>
          )}
        </p>
      </Step>

      <Step
        number={5}
        title="Embed a checkout session"
        done={results.checkout !== undefined}
        running={running === "checkout"}
        blockedBy={qrId ? null : "Create the offer in step 2 first."}
        onRun={() => run("checkout", { qrId })}
        error={errors.checkout ?? null}
      >
        <p>
          For checkout inside your own page: your server creates a session and your page loads its
          {" "}
          <code>embedUrl</code> with <code>embed.js</code>. <code>embedLink</code>{" "}
          must be on an origin of your <a href="/panel/developers/checkout">allowlist</a>
          . Here it is the panel's preview page, so you can see the session embedded: running this
          step puts <code>{new URL(props.checkoutRequest.embedLink).origin}</code>{" "}
          on your allowlist, and the curl works as shown. Your shop's own origin goes there later.
        </p>
        <Snippet
          id="qs-curl-checkout"
          label="curl"
          code={curlCommand(
            props.baseUrl,
            "POST",
            `/api/v1/checkout-sessions/${qrId ?? "qr_..."}`,
            props.checkoutRequest,
          )}
        />
        <div class="qs-grid">
          <Json label="Request body" value={props.checkoutRequest} />
          <Json
            label={results.checkout ? statusLine(results.checkout) : "Sample response · 201"}
            value={results.checkout?.response ?? props.samples.session}
            live={results.checkout !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("createCheckoutSession")}>API reference: create a checkout session</a>
          {sessionId && (
            <>
              {" · "}
              <a href={`${props.previewUrl}?session=${sessionId}`}>See it embedded</a>
            </>
          )}
        </p>
      </Step>

      <Step
        number={6}
        title={`Complete it with the test code ${props.code}`}
        done={results.complete !== undefined}
        running={running === "complete"}
        blockedBy={sessionId ? null : "Create the checkout session in step 5 first."}
        onRun={() => run("complete", { sessionId })}
        error={errors.complete ?? null}
      >
        <p>
          In the sandbox, codes starting with <code>777</code> succeed and <code>500500</code>{" "}
          is declined. The complete operation does what a customer does in the checkout: one payment
          attempt with the code.
        </p>
        <Snippet
          id="qs-curl-complete"
          label="curl"
          code={curlCommand(
            props.baseUrl,
            "POST",
            `/api/v1/checkout-sessions/${sessionId ?? "cs_..."}/complete`,
            { code: props.code },
          )}
        />
        <div class="qs-grid">
          <Json label="Request body" value={{ code: props.code }} />
          <Json
            label={results.complete ? statusLine(results.complete) : "Sample response · 200"}
            value={results.complete?.response ?? props.samples.completed}
            live={results.complete !== undefined}
          />
        </div>
        <p class="qs-step__links">
          <a href={ref("completeCheckoutSession")}>
            API reference: pay a checkout session with a test code
          </a>
          {paidPaymentId && (
            <>
              {" · "}
              <a href={`${props.paymentsUrl}/${paidPaymentId}`}>The payment in the panel</a>
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
            <span class="visually-hidden">Step 7:</span> Watch the webhook arrive
          </h2>
          <button
            type="button"
            class="button button--small button--secondary"
            onClick={startWatching}
            disabled={!endpointId || watching}
          >
            {watching ? "Watching…" : "Watch"}
          </button>
        </div>
        {!endpointId && <p class="qs-step__blocked">Set up the receiver in step 3 first.</p>}
        <div class="qs-step__body">
          <p>
            The session's payment and its completion (<code>payment.succeeded</code>,{" "}
            <code>checkout.session.completed</code>, ...) are delivered to the inbox, each attempt
            logged with its status code and latency. Your server would confirm the order on{" "}
            <code>checkout.session.completed</code>.
          </p>
          <div class="qs-watch" aria-live="polite">
            {watch === null ? <p class="muted">Nothing watched yet.</p> : (
              <div class="qs-grid">
                <div>
                  <h3 class="qs-watch__title">Delivery log</h3>
                  {watch.deliveries.length === 0
                    ? <p class="muted">No deliveries yet.</p>
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
                                {delivery.status.toLowerCase()}
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
                  <h3 class="qs-watch__title">Received by the inbox</h3>
                  {watch.inbox.length === 0
                    ? <p class="muted">Nothing received yet.</p>
                    : (
                      <ul class="qs-list">
                        {watch.inbox.map((request) => (
                          <li>
                            <code>{request.eventType ?? "(not an event)"}</code>{" "}
                            <span
                              class={`badge badge--${request.verified ? "success" : "danger"}`}
                            >
                              {request.verified ? "signature verified" : "not verified"}
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
                checkout.session.completed reached the inbox with a valid signature. That is the
                whole cycle: key, offer, payment, checkout, webhook. Next, point a webhook at your
                own server and verify signatures there.
              </p>
            )}
          </div>
          <Snippet
            id="qs-curl-watch"
            label="curl"
            code={curlCommand(
              props.baseUrl,
              "GET",
              "/api/v1/events?type=checkout.session.completed&limit=1",
            )}
          />
          <p class="qs-step__links">
            <a href={ref("listEventDeliveries")}>API reference: list an event's deliveries</a>
            {endpointId && (
              <>
                {" · "}
                <a href={`${props.webhooksUrl}/${endpointId}`}>Full delivery log</a>
              </>
            )}
          </p>
        </div>
      </li>
    </ol>
  );
}
