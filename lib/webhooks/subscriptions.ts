import { EVENT_TYPES } from "../events.ts";

/** The event type only the test operation sends: no subscription receives it. */
export const TEST_EVENT_TYPE = "webhook.test";

/** Event types an endpoint can subscribe to: every type but `webhook.test`. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((type) => type !== TEST_EVENT_TYPE);

/** Every `family.*` wildcard that matches at least one subscribable type (`payment.*`, ...). */
const WILDCARDS = new Set(
  SUBSCRIBABLE_EVENT_TYPES.flatMap((type) => {
    const parts = type.split(".");
    return parts.slice(1).map((_, index) => `${parts.slice(0, index + 1).join(".")}.*`);
  }),
);

/** Every subscription an endpoint may list: `*`, each wildcard and each type. */
export const SUBSCRIPTION_PATTERNS: readonly string[] = [
  "*",
  ...WILDCARDS,
  ...SUBSCRIBABLE_EVENT_TYPES,
];

/** Tells whether `pattern` is a subscription: `*`, an event type or a wildcard like `payment.*`. */
export function isSubscriptionPattern(pattern: string): boolean {
  return pattern === "*" || WILDCARDS.has(pattern) ||
    (SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(pattern);
}

/** Tells whether an endpoint subscribed to `patterns` receives events of `type`. */
export function subscribes(patterns: readonly string[], type: string): boolean {
  if (type === TEST_EVENT_TYPE) return false;
  return patterns.some((pattern) =>
    pattern === "*" || pattern === type ||
    (pattern.endsWith(".*") && type.startsWith(pattern.slice(0, -1)))
  );
}
