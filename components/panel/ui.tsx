import type { ComponentChildren } from "preact";
import { Island } from "../Island.tsx";
import type { MessageKey } from "../../lib/i18n/mod.ts";
import { moneyText, useOptionalT, useT } from "./i18n.ts";

/** The hidden CSRF field every form of a signed-in page carries. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/** A moment, readable on the server (UTC) and turned into local time in the browser. */
export function DateTime(props: { at: number | null; empty?: string }) {
  if (props.at === null) return <span class="muted">{props.empty ?? "—"}</span>;
  const iso = new Date(props.at).toISOString();
  return (
    <time datetime={iso} data-local="datetime" title={iso}>
      {iso.slice(0, 16).replace("T", " ")} UTC
    </time>
  );
}

/** Minor units in their currency, as people of the page's language write money. */
export function Money(props: { amount: number; currency: string }) {
  return <span class="money">{moneyText(useT(), props.amount, props.currency)}</span>;
}

const TONES: Record<string, string> = {
  SUCCEEDED: "success",
  ACTIVE: "success",
  COMPLETED: "success",
  ENABLED: "success",
  PENDING: "neutral",
  OPEN: "info",
  PROCESSING: "info",
  EXPIRING: "warning",
  PAST_DUE: "warning",
  FAILED: "danger",
  REVOKED: "danger",
  DISABLED: "danger",
  CANCELED: "muted",
  EXPIRED: "muted",
  INACTIVE: "muted",
};

const STATUS_KEYS = Object.fromEntries(
  [...Object.keys(TONES), "REFUNDED", "PARTIALLY_REFUNDED"].map((status) => [
    `panel.status.${status}`,
    true,
  ]),
);

/** A status as a coloured label with its word, never colour alone. */
export function StatusBadge(props: { status: string; label?: string }) {
  // Inside an island there is no translator: the island passes `label`.
  const tr = useOptionalT();
  const tone = TONES[props.status] ?? "neutral";
  const key = `panel.status.${props.status}`;
  const text = props.label ??
    (tr && key in STATUS_KEYS
      ? tr.t(key as MessageKey)
      : props.status.charAt(0) + props.status.slice(1).toLowerCase().replace(/_/g, " "));
  return <span class={`badge badge--${tone}`}>{text}</span>;
}

/** The title row of a page, with its primary action. */
export function PageHeader(props: {
  title: string;
  description?: ComponentChildren;
  actions?: ComponentChildren;
  back?: { href: string; label: string };
}) {
  return (
    <header class="page-header">
      {props.back && (
        <a class="page-header__back" href={props.back.href}>
          ← {props.back.label}
        </a>
      )}
      <div class="page-header__row">
        <div>
          <h1>{props.title}</h1>
          {props.description && <p class="page-header__description">{props.description}</p>}
        </div>
        {props.actions && <div class="page-header__actions">{props.actions}</div>}
      </div>
    </header>
  );
}

/** A message above a page's content: what just happened, or what needs attention. */
export function Notice(props: {
  tone: "success" | "error" | "info" | "warning";
  title?: string;
  children: ComponentChildren;
}) {
  return (
    <div
      class={`callout callout--${props.tone}`}
      role={props.tone === "error" ? "alert" : "status"}
    >
      {props.title && <p class="callout__title">{props.title}</p>}
      <div class="callout__body">{props.children}</div>
    </div>
  );
}

/** A card: one topic of a page. */
export function Card(props: {
  title?: string;
  id?: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <section
      class={`card ${props.class ?? ""}`}
      id={props.id}
      aria-labelledby={props.title && props.id ? `${props.id}-title` : undefined}
    >
      {(props.title || props.actions) && (
        <div class="card__header">
          {props.title && <h2 id={props.id ? `${props.id}-title` : undefined}>{props.title}</h2>}
          {props.actions && <div class="card__actions">{props.actions}</div>}
        </div>
      )}
      {props.children}
    </section>
  );
}

/** What an empty list says, and what to do about it. */
export function EmptyState(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty__title">{props.title}</p>
      {props.children && <div class="empty__body">{props.children}</div>}
    </div>
  );
}

/** A labelled form field with its hint and its error, tied together for screen readers. */
export function Field(props: {
  name: string;
  label: string;
  hint?: ComponentChildren;
  error?: string | null;
  children: (attrs: {
    id: string;
    name: string;
    "aria-invalid"?: "true";
    "aria-describedby"?: string;
  }) => ComponentChildren;
}) {
  const id = `field-${props.name}`;
  const described = [props.hint ? `${id}-hint` : null, props.error ? `${id}-error` : null]
    .filter(Boolean).join(" ");
  return (
    <div class={`field ${props.error ? "field--invalid" : ""}`}>
      <label class="field__label" for={id}>{props.label}</label>
      {props.children({
        id,
        name: props.name,
        ...(props.error ? { "aria-invalid": "true" as const } : {}),
        ...(described ? { "aria-describedby": described } : {}),
      })}
      {props.hint && <p class="field__hint" id={`${id}-hint`}>{props.hint}</p>}
      {props.error && <p class="field__error" id={`${id}-error`}>{props.error}</p>}
    </div>
  );
}

/** A new password and its repetition, as every form that chooses a password asks them. */
export function NewPasswordFields(props: {
  label: string;
  confirmLabel: string;
  minLength: number;
  errors: { password?: string | null; confirm?: string | null };
  autofocus?: boolean;
}) {
  return (
    <>
      <Field
        name="password"
        label={props.label}
        hint={useT().t("panel.passwordHint", { min: props.minLength })}
        error={props.errors.password}
      >
        {(attrs) => (
          <input
            {...attrs}
            type="password"
            autocomplete="new-password"
            minLength={props.minLength}
            required
            autofocus={props.autofocus}
          />
        )}
      </Field>
      <Field name="confirm" label={props.confirmLabel} error={props.errors.confirm}>
        {(attrs) => <input {...attrs} type="password" autocomplete="new-password" required />}
      </Field>
    </>
  );
}

/** A form's error that names no single field. */
export function FormError(props: { message: string | null | undefined }) {
  if (!props.message) return null;
  return (
    <div class="callout callout--error" role="alert">
      <div class="callout__body">{props.message}</div>
    </div>
  );
}

/**
 * A destructive action behind a second click, with no script: the button opens a box that says
 * what will happen, and only its own button submits.
 */
export function ConfirmAction(props: {
  action: string;
  csrf: string;
  label: string;
  confirmLabel: string;
  tone?: "danger" | "default";
  children: ComponentChildren;
  fields?: Record<string, string>;
  extra?: ComponentChildren;
}) {
  const tone = props.tone ?? "danger";
  return (
    <details class="confirm">
      <summary
        class={`button button--small button--${tone === "danger" ? "danger-ghost" : "secondary"}`}
      >
        {props.label}
      </summary>
      <form method="post" action={props.action} class="confirm__box" data-once>
        <CsrfField token={props.csrf} />
        {Object.entries(props.fields ?? {}).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <div class="confirm__text">{props.children}</div>
        {props.extra}
        <button
          type="submit"
          class={`button button--small button--${tone === "danger" ? "danger" : "primary"}`}
        >
          {props.confirmLabel}
        </button>
      </form>
    </details>
  );
}

/** A block of code with a copy button that reads it from the page (no secret in props). */
export function CodeBlock(props: { id: string; code: string; label?: string; language?: string }) {
  const { t } = useT();
  const label = props.label ?? props.language ?? "";
  return (
    <div class="code">
      <div class="code__bar">
        <span class="code__label" id={`${props.id}-label`}>{label}</span>
        <Island
          name="CopyButton"
          props={{
            target: props.id,
            label: t("panel.copy"),
            copiedLabel: t("panel.copied"),
            selectLabel: t("panel.select"),
          }}
        />
      </div>
      {/* A long line scrolls: the block takes focus so a keyboard can scroll it too. */}
      <pre tabIndex={0} role="group" aria-labelledby={label ? `${props.id}-label` : undefined}>
        <code id={props.id}>{props.code}</code>
      </pre>
    </div>
  );
}

/** A secret or link shown once, with a copy button. */
export function OnceValue(props: { id: string; value: string; label: string }) {
  const { t } = useT();
  return (
    <div class="once">
      <p class="once__label">{props.label}</p>
      <div class="once__row">
        <code class="once__value" id={props.id}>{props.value}</code>
        <Island
          name="CopyButton"
          props={{
            target: props.id,
            label: t("panel.copy"),
            copiedLabel: t("panel.copied"),
            selectLabel: t("panel.select"),
          }}
        />
      </div>
    </div>
  );
}

/**
 * A table's frame: on a narrow screen the table scrolls sideways inside it, so the page itself
 * never does; it takes focus, named by `label`, so a keyboard can scroll it as well.
 */
export function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}

/** Label/value pairs of a record: `<Facts><Fact label="...">value</Fact></Facts>`. */
export function Facts(props: { children: ComponentChildren }) {
  return <dl class="facts">{props.children}</dl>;
}

/** One label/value pair of `Facts`. */
export function Fact(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="facts__item">
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

/** An identifier in monospace. */
export function Id(props: { children: ComponentChildren }) {
  return <code class="id">{props.children}</code>;
}
