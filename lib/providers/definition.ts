import type { z } from "zod";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Environment } from "../config_parts.ts";
import type { Fetch, PaymentProvider, ProviderTimeouts } from "./mod.ts";

/** How a provider built from configuration reaches its API; tests pass a fake's `fetch`. */
export interface ProviderOptions {
  clock: Clock;
  fetch?: Fetch;
  timeouts?: Partial<ProviderTimeouts>;
}

/**
 * A payment provider as lib/config.ts lists it: its variables, the settings they make, and its
 * adapter built from them. Each lives in its folder, `lib/providers/<name>/config.ts`.
 */
export interface ProviderDefinition<S extends { kind: string }> {
  /** PAYMENT_PROVIDER's value, the adapter's `name` and its notification route's. */
  readonly name: S["kind"];
  /** Its name as merchants know it ("PayU"), for the sentences that name it. */
  readonly displayName: string;
  /** Whether it takes real money: production runs only with one that does. */
  readonly takesMoney: boolean;
  /**
   * Its variables. They are checked whichever provider is chosen, so a bad value stops the start
   * even before it is needed.
   */
  readonly variables: z.ZodObject;
  /** What production needs with it, for the refusal to start: "with PAYU_POS_ID, ...". */
  readonly requirement: string;
  /** What `doctor` says to set for it: "PAYMENT_PROVIDER=... and the ... credentials". */
  readonly setup: string;
  /**
   * Its settings from `raw` (the set variables, already checked by `variables`), or null where
   * `environment` refuses it; throws `ConfigError` with one line for a missing or unsafe value.
   */
  settings(raw: Record<string, string>, environment: Environment): S | null;
  /** Its adapter, for a configuration whose `paymentProvider` names it. */
  create(config: Config, options: ProviderOptions): PaymentProvider;
}

/** Where provider `name` posts its callbacks, to be registered in its merchant panel. */
export function notifyUrlOf(publicUrl: string, name: string): string {
  return `${publicUrl}/providers/${name}/notify`;
}
