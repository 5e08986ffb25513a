import type { Clock } from "../clock.ts";
import { type Config, type Environment, requireProvider } from "../config.ts";
import type { PaymentProvider } from "./mod.ts";
import type { Fetch } from "./payu/http.ts";
import { PayuProvider, type PayuTimeouts } from "./payu/provider.ts";
import { SandboxProvider } from "./sandbox.ts";

/** How a PayU adapter built from configuration reaches PayU; tests pass a fake's `fetch`. */
export interface PayuOptions {
  fetch?: Fetch;
  timeouts?: Partial<PayuTimeouts>;
}

/** Where PayU posts its notifications, to be registered in the POS's settings. */
export function payuNotifyUrl(publicUrl: string): string {
  return `${publicUrl}/providers/payu/notify`;
}

/**
 * The one place a payment provider is built from configuration. A production process without a
 * real provider never gets this far: `requireProvider` throws the `ConfigError` naming
 * PAYMENT_PROVIDER.
 */
export function providerFromConfig(
  config: Config,
  options: { clock: Clock; payu?: PayuOptions },
): PaymentProvider {
  const chosen = requireProvider(config);
  const provider = chosen.kind === "sandbox" ? new SandboxProvider() : new PayuProvider({
    config: chosen,
    notifyUrl: payuNotifyUrl(config.publicUrl),
    fetch: options.payu?.fetch,
    timeouts: options.payu?.timeouts,
    now: () => options.clock.now(),
  });
  assertProviderAllowed(config.environment, provider);
  return provider;
}

/**
 * Throws when a production process would run the simulator, however it was handed one: the
 * simulator says SUCCEEDED and no money moves.
 */
export function assertProviderAllowed(environment: Environment, provider: PaymentProvider): void {
  if (
    environment === "production" &&
    (provider instanceof SandboxProvider || provider.name === "sandbox")
  ) {
    throw new Error("A production process must never run the sandbox simulator.");
  }
}
