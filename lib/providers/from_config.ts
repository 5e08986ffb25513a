import { type Config, type Environment, providerDefinition, requireProvider } from "../config.ts";
import type { ProviderOptions } from "./definition.ts";
import type { PaymentProvider } from "./mod.ts";
import { SandboxProvider } from "./sandbox.ts";

/**
 * The one place a payment provider is built from configuration: the definition PAYMENT_PROVIDER
 * names in lib/config.ts's list builds its adapter. A production process without a real provider
 * never gets this far: `requireProvider` throws the `ConfigError` naming PAYMENT_PROVIDER.
 */
export function providerFromConfig(
  config: Config,
  options: ProviderOptions,
): PaymentProvider {
  const provider = providerDefinition(requireProvider(config).kind).create(config, options);
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
