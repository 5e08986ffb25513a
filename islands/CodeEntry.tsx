/// <reference lib="dom" />
import type { ComponentChildren, RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { CheckIcon, ClockIcon, CrossIcon, LockIcon, SpinnerIcon } from "../components/icons.tsx";
import { BANK_CONFIRM_SECONDS, type CheckoutState } from "../lib/checkout/state.ts";
import { type CodeEntryText, PAYMENT_SLOT, TIME_SLOT } from "../lib/checkout/code_entry_text.ts";
import type { FailureCode } from "../lib/providers/mod.ts";
import { type CheckoutMessage, postToParent } from "./messages.ts";
import { CustomerFields, type EnteredDetails } from "../components/CustomerFields.tsx";

/** What the server gives the code-entry island; it reaches the browser, so no secrets. */
interface CodeEntryProps {
  /** Inside the merchant's iframe (a session) or the hosted payment page. */
  mode: "embedded" | "hosted";
  /** Where the code is posted: the page's own URL (the form works without JavaScript too). */
  actionUrl: string;
  /** Where the page's current state is read while waiting. */
  stateUrl: string;
  /** The session the CHECKOUT_* messages name (embedded only). */
  sessionId: string | null;
  /** The only origin CHECKOUT_* messages go to: the session's embedLink origin. */
  parentOrigin: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  /** Seconds until the session or payment expires, at render time. */
  expiresInSeconds: number;
  initial: CheckoutState;
  /** Every word shown, already in the customer's language. */
  text: CodeEntryText;
  /** Ask for an e-mail address (optional): the payment has none. */
  askEmail: boolean;
  emailRequired: boolean;
  /** Offer "I need an invoice" with the company's name and NIP. */
  offersInvoices: boolean;
  /** Hosted: where a failed payment's page starts a new payment (a plain form posts there). */
  againUrl: string | null;
  /** What the customer entered and what was wrong with it, when a plain form came back. */
  entered?: EnteredDetails;
}

const POLL_MS = 1500;
/** Lets the merchant's page handle CHECKOUT_CANCELED before the iframe navigates it away. */
const CANCEL_DELAY_MS = 250;
/** Long enough to read "Payment successful" before leaving for the merchant's page. */
const REDIRECT_DELAY_MS = 1500;
const CODE = /^\d{6}$/;

function failureText(text: CodeEntryText, code: FailureCode | null): string {
  return text.failures[code ?? "unknown"] ?? text.failures.unknown;
}

/** `0:47`: the time left to confirm in the banking app. */
function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function lockedText(text: CodeEntryText, seconds: number): string {
  const minutes = Math.min(text.lockedMinutes.length, Math.max(1, Math.ceil(seconds / 60)));
  return text.lockedMinutes[minutes - 1];
}

const NOTHING_ENTERED: EnteredDetails = {
  email: "",
  invoice: false,
  companyName: "",
  taxId: "",
  invalid: null,
};

/** Which CHECKOUT_* message a state is worth, keyed so each is sent once per payment. */
function announcement(
  state: CheckoutState,
  sessionId: string,
): [string, CheckoutMessage] | null {
  const { phase, paymentId, failureCode } = state;
  if (phase === "succeeded" && paymentId) {
    return [`done:${paymentId}`, { type: "CHECKOUT_COMPLETED", sessionId, paymentId }];
  }
  if ((phase === "failed" || phase === "locked") && paymentId && failureCode) {
    return [`failed:${paymentId}`, {
      type: "CHECKOUT_FAILED",
      sessionId,
      paymentId,
      failureCode,
    }];
  }
  if (phase === "expired") return ["expired", { type: "CHECKOUT_EXPIRED", sessionId }];
  return null;
}

async function readState(url: string): Promise<CheckoutState> {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`state: ${response.status}`);
  return await response.json();
}

function StatusCard(props: {
  tone: "progress" | "success" | "error" | "neutral";
  icon: ComponentChildren;
  title: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  children?: ComponentChildren;
}) {
  return (
    <div
      class={`status status--${props.tone}`}
      role={props.tone === "error" ? "alert" : "status"}
    >
      <span class="status__icon">{props.icon}</span>
      <h2 class="status__title" tabIndex={-1} ref={props.headingRef}>{props.title}</h2>
      {props.children}
    </div>
  );
}

/**
 * The code-entry panel of the checkout iframe and the hosted page: takes the 6-digit code,
 * shows processing, success, failure, lock and expiry, and (embedded) tells the merchant's page
 * through CHECKOUT_* messages posted only to the session's embedLink origin.
 */
export default function CodeEntry(props: CodeEntryProps) {
  const { text } = props;
  const embedded = props.mode === "embedded";
  const [state, setState] = useState<CheckoutState>(props.initial);
  const [code, setCode] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [details, setDetails] = useState<EnteredDetails>(props.entered ?? NOTHING_ENTERED);
  const [notice, setNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** While processing: seconds left to confirm in the banking app, counted down here. */
  const [confirmLeft, setConfirmLeft] = useState(
    props.initial.confirmSecondsLeft ?? BANK_CONFIRM_SECONDS,
  );
  // The server's HTML relies on the browser's own validation; once hydrated, this code checks.
  const [hydrated, setHydrated] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const announced = useRef(new Set<string>());
  const firstPhase = useRef(true);
  /** When the page loaded, by this browser's clock: expiry is counted from here. */
  const loadedAt = useRef(0);

  function send(message: CheckoutMessage) {
    if (embedded && props.parentOrigin) postToParent(props.parentOrigin, message);
  }

  function apply(next: CheckoutState) {
    // The server counts from when the bank was asked; never count back up while waiting.
    if (next.phase === "processing" && next.confirmSecondsLeft !== null) {
      const serverLeft = next.confirmSecondsLeft;
      setConfirmLeft((left) =>
        state.phase === "processing" ? Math.min(left, serverLeft) : serverLeft
      );
    }
    if (embedded && props.sessionId) {
      const due = announcement(next, props.sessionId);
      if (due && !announced.current.has(due[0])) {
        announced.current.add(due[0]);
        send(due[1]);
      }
    }
    setState(next);
  }

  async function refresh() {
    try {
      apply(await readState(props.stateUrl));
    } catch {
      setNotice(text.offline);
    }
  }

  function leaveFor(url: string) {
    if (!embedded) return globalThis.location.assign(url);
    try {
      // Allowed right after the customer's click; otherwise the link below does it.
      globalThis.top!.location.href = url;
    } catch {
      // The browser refused a top-level navigation without a recent click.
    }
  }

  // On load: take over validation, tell the merchant's page we are ready and how tall we are.
  useEffect(() => {
    loadedAt.current = Date.now();
    setHydrated(true);
    if (!embedded || !props.sessionId) return;
    const sessionId = props.sessionId;
    send({ type: "CHECKOUT_READY", sessionId });
    // Reloaded while the bank decides: the merchant's page hears that it is still processing.
    if (props.initial.phase === "processing") send({ type: "CHECKOUT_PROCESSING", sessionId });
    const initial = announcement(props.initial, sessionId);
    if (initial) {
      announced.current.add(initial[0]);
      // A reload after a failure is not a new failure; completion and expiry still matter.
      if (props.initial.phase !== "failed" && props.initial.phase !== "locked") send(initial[1]);
    }
    let height = 0;
    const observer = new ResizeObserver(() => {
      const next = Math.ceil(document.body.getBoundingClientRect().height);
      if (next !== height) {
        height = next;
        send({ type: "CHECKOUT_RESIZE", sessionId, height });
      }
    });
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  // Move focus to what changed, so keyboard and screen-reader users follow along.
  useEffect(() => {
    if (firstPhase.current) {
      firstPhase.current = false;
      return;
    }
    if (state.phase === "ready") inputRef.current?.focus();
    else headingRef.current?.focus();
  }, [state.phase]);

  // While the bank decides, ask again every POLL_MS.
  useEffect(() => {
    if (state.phase !== "processing" || submitting) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [state.phase, submitting]);

  // The countdown to confirm in the banking app; the bank's answer, not the countdown, decides.
  useEffect(() => {
    if (state.phase !== "processing") return;
    const timer = setInterval(() => setConfirmLeft((left) => Math.max(0, left - 1)), 1000);
    return () => clearInterval(timer);
  }, [state.phase]);

  // At expiry, and when a lock ends, the server says what comes next.
  useEffect(() => {
    const waitMs = state.phase === "locked"
      ? (state.retryAfterSeconds ?? 60) * 1000
      : state.phase === "ready" || state.phase === "failed"
      ? props.expiresInSeconds * 1000 - (Date.now() - loadedAt.current)
      : null;
    if (waitMs === null) return;
    const timer = setTimeout(refresh, Math.max(0, waitMs) + 500);
    return () => clearTimeout(timer);
  }, [state.phase]);

  useEffect(() => {
    if (state.phase !== "succeeded" || !props.successUrl) return;
    const timer = setTimeout(() => leaveFor(props.successUrl!), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.phase]);

  function enter(change: Partial<EnteredDetails>) {
    setDetails((current) => ({ ...current, ...change, invalid: null }));
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (submitting) return;
    const digits = code.replace(/\s+/g, "");
    if (!CODE.test(digits)) {
      setFieldError(text.codeInvalid);
      inputRef.current?.focus();
      return;
    }
    const before = state;
    setFieldError(null);
    setDetails((current) => ({ ...current, invalid: null }));
    setNotice(null);
    setSubmitting(true);
    setConfirmLeft(BANK_CONFIRM_SECONDS);
    setState({ ...state, phase: "processing" });
    if (props.sessionId) send({ type: "CHECKOUT_PROCESSING", sessionId: props.sessionId });
    try {
      const response = await fetch(props.actionUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          code: digits,
          ...(props.askEmail && { email: details.email }),
          ...(props.offersInvoices && details.invoice && {
            invoice: true,
            companyName: details.companyName,
            taxId: details.taxId,
          }),
        }),
      });
      if (response.ok) {
        apply(await response.json());
      } else if (response.status === 400) {
        setState(before);
        const param = (await response.json().catch(() => null))?.error?.param;
        // A subscription renewed by link refuses a payment without an address (`customer.email`).
        const field = param === "customer.email" ? "email" : param;
        if (field === "email" || field === "companyName" || field === "taxId") {
          setDetails((current) => ({ ...current, invalid: field }));
        } else {
          setFieldError(text.codeInvalid);
        }
      } else if (response.status === 409 || response.status === 429) {
        await refresh();
      } else if (response.status === 403) {
        setState(before);
        setNotice(text.stale);
      } else {
        setState(before);
        setNotice(text.serverError);
      }
    } catch {
      setState(before);
      setNotice(text.offline);
    } finally {
      setCode("");
      setSubmitting(false);
    }
  }

  function tryAgain() {
    setNotice(null);
    setState({ ...state, phase: "ready" });
  }

  // Nothing to cancel once paid or while paying; an expired checkout already told the merchant.
  const cancel = state.phase === "succeeded" || state.phase === "processing" ||
      (embedded && state.phase === "expired")
    ? null
    : props.cancelUrl
    ? (
      <a
        class="link-button"
        href={props.cancelUrl}
        target={embedded ? "_top" : undefined}
        onClick={(event) => {
          if (!embedded || !props.sessionId) return;
          event.preventDefault();
          send({ type: "CHECKOUT_CANCELED", sessionId: props.sessionId });
          const url = props.cancelUrl!;
          setTimeout(() => leaveFor(url), CANCEL_DELAY_MS);
        }}
      >
        {embedded ? text.cancel : text.back}
      </a>
    )
    : embedded && props.sessionId
    ? (
      <button
        type="button"
        class="link-button"
        onClick={() => send({ type: "CHECKOUT_CANCELED", sessionId: props.sessionId! })}
      >
        {text.cancel}
      </button>
    )
    : null;

  let body: ComponentChildren;
  switch (state.phase) {
    case "ready":
      body = (
        <form
          class="code-form"
          method="post"
          action={props.actionUrl}
          noValidate={hydrated}
          onSubmit={submit}
        >
          <h2 class="panel-title" tabIndex={-1} ref={headingRef}>{text.heading}</h2>
          <p class="hint" id="code-hint">{text.hint}</p>
          <label class="field-label" for="code">{text.codeLabel}</label>
          <input
            ref={inputRef}
            id="code"
            name="code"
            class="code-input"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]{6,7}"
            maxLength={7}
            required
            value={code}
            aria-invalid={fieldError ? "true" : "false"}
            aria-describedby={fieldError ? "code-hint code-error" : "code-hint"}
            onInput={(event) => {
              setCode((event.currentTarget as HTMLInputElement).value);
              setFieldError(null);
            }}
          />
          {fieldError && <p id="code-error" class="field-error">{fieldError}</p>}
          <CustomerFields
            text={text}
            askEmail={props.askEmail}
            emailRequired={props.emailRequired}
            offersInvoices={props.offersInvoices}
            details={details}
            hydrated={hydrated}
            onEnter={enter}
          />
          <button type="submit" class="button button--primary" disabled={submitting}>
            {text.submit}
          </button>
        </form>
      );
      break;
    case "processing":
      body = (
        <StatusCard
          tone="progress"
          icon={<SpinnerIcon />}
          title={text.waitTitle}
          headingRef={headingRef}
        >
          <p>{text.waitText}</p>
          <progress
            class="countdown__bar"
            max={BANK_CONFIRM_SECONDS}
            value={confirmLeft}
            aria-hidden="true"
          />
          <p class="countdown" role="timer">
            {confirmLeft > 0 ? text.countdown.replace(TIME_SLOT, clock(confirmLeft)) : text.late}
          </p>
        </StatusCard>
      );
      break;
    case "succeeded":
      body = (
        <StatusCard
          tone="success"
          icon={<CheckIcon />}
          title={text.successTitle}
          headingRef={headingRef}
        >
          <p>{text.successText}</p>
          {state.paymentId && (
            <p class="reference">{text.successReference.replace(PAYMENT_SLOT, state.paymentId)}</p>
          )}
          {props.successUrl
            ? (
              <p>
                {text.successRedirect}{" "}
                <a href={props.successUrl} target={embedded ? "_top" : undefined}>
                  {text.successContinue}
                </a>
              </p>
            )
            : !embedded && <p>{text.successClose}</p>}
        </StatusCard>
      );
      break;
    case "failed":
      body = (
        <StatusCard
          tone="error"
          icon={<CrossIcon />}
          title={text.failedTitle}
          headingRef={headingRef}
        >
          <p>{failureText(text, state.failureCode)}</p>
          <p>{text.nothingCharged}</p>
          {!state.canRetry ? <p>{text.noRetry}</p> : props.againUrl
            ? (
              // A failed payment is final: the server starts a new one, with or without JavaScript.
              <form method="post" action={props.againUrl}>
                <button type="submit" class="button button--primary">{text.retry}</button>
              </form>
            )
            : (
              <button type="button" class="button button--primary" onClick={tryAgain}>
                {text.retry}
              </button>
            )}
        </StatusCard>
      );
      break;
    case "locked":
      body = (
        <StatusCard
          tone="error"
          icon={<LockIcon />}
          title={text.lockedTitle}
          headingRef={headingRef}
        >
          {state.failureCode && <p>{failureText(text, state.failureCode)}</p>}
          <p>{lockedText(text, state.retryAfterSeconds ?? 60)}</p>
        </StatusCard>
      );
      break;
    case "expired":
      body = (
        <StatusCard
          tone="neutral"
          icon={<ClockIcon />}
          title={text.expiredTitle}
          headingRef={headingRef}
        >
          <p>{text.expiredText}</p>
        </StatusCard>
      );
      break;
    case "canceled":
      body = (
        <StatusCard
          tone="neutral"
          icon={<CrossIcon />}
          title={text.canceledTitle}
          headingRef={headingRef}
        >
          <p>{text.canceledText}</p>
        </StatusCard>
      );
      break;
  }

  return (
    <div class="code-entry" data-phase={state.phase} aria-busy={submitting ? "true" : "false"}>
      {body}
      {notice && <p class="notice" role="alert">{notice}</p>}
      {cancel && <div class="code-entry__cancel">{cancel}</div>}
    </div>
  );
}
