import type { Services } from "../context.ts";
import type { ProviderDescription } from "./mod.ts";

/** What the panel shows of the payment provider: which one, and when it was last heard from. */
export interface ProviderStatus extends Omit<ProviderDescription, "testPayments"> {
  name: string;
  lastSuccessAt: number | null;
  lastNotificationAt: number | null;
}

/** The provider's status as this process knows it. */
export function providerStatus(services: Services): ProviderStatus {
  const { provider } = services;
  const { displayName, account, notifyUrl } = provider.status;
  return {
    name: provider.name,
    displayName,
    account,
    notifyUrl,
    lastSuccessAt: provider.health.lastSuccessAt,
    lastNotificationAt: provider.health.lastNotificationAt,
  };
}
