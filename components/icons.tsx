import type { ComponentChildren } from "preact";

function Svg(props: { children: ComponentChildren; class?: string }) {
  return (
    <svg
      class={props.class ?? "icon"}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {props.children}
    </svg>
  );
}

/** A tick: success. */
export function CheckIcon() {
  return (
    <Svg>
      <path d="M20 6 9 17l-5-5" />
    </Svg>
  );
}

/** A cross: failure. */
export function CrossIcon() {
  return (
    <Svg>
      <path d="M18 6 6 18M6 6l12 12" />
    </Svg>
  );
}

/** A clock: expired. */
export function ClockIcon() {
  return (
    <Svg>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </Svg>
  );
}

/** A padlock: locked code entry, and the secured-by line. */
export function LockIcon(props: { class?: string }) {
  return (
    <Svg class={props.class}>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </Svg>
  );
}

/** A turning arc: waiting for the bank. */
export function SpinnerIcon() {
  return (
    <Svg class="icon icon--spin">
      <path d="M21 12a9 9 0 1 1-6.2-8.56" />
    </Svg>
  );
}
