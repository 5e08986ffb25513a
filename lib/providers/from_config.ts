import type { Clock } from "../clock.ts";
import { type Config, type Environment, requireProvider } from "../config.ts";
import type { PaymentProvider } from "./mod.ts";
import type { Fetch } from "./payu/http.ts";
import { PayuProvider } from "./payu/provider.ts";
import { SandboxProvider } from "./sandbox.ts";

/** Where PayU posts its notifications, to be registered in the POS's settings. */
export function payuNotifyUrl(publicUrl: string): string {
  return `${publicUrl}/providers/payu/notify`;
}

/**
 * The one place a payment provider is built from configuration. A production process without a
 * real provider never gets this far: `requireProvider` throws the `ConfigError` naming
 * PAYMENT_PROVIDER. `fetch` reaches PayU (tests pass the in-process fake's).
 */
export function providerFromConfig(
  config: Config,
  options: { clock: Clock; fetch?: Fetch },
): PaymentProvider {
  const chosen = requireProvider(config);
  const provider = chosen.kind === "sandbox" ? new SandboxProvider() : new PayuProvider({
    config: chosen,
    notifyUrl: payuNotifyUrl(config.publicUrl),
    fetch: options.fetch,
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
