import type { Services } from "../context.ts";
import { payuNotifyUrl } from "./from_config.ts";
import { PayuProvider } from "./payu/provider.ts";

/** What the panel shows of the payment provider: which one, and when it was last heard from. */
export interface ProviderStatus {
  name: string;
  /** The URL to register as the POS's notification URL; null for the simulator. */
  notifyUrl: string | null;
  /** PayU's POS and API, for the panel to describe in its language; null for the simulator. */
  payu: { posId: string; apiUrl: string } | null;
  lastSuccessAt: number | null;
  lastNotificationAt: number | null;
}

/** The provider's status as this process knows it. */
export function providerStatus(services: Services): ProviderStatus {
  const { provider } = services;
  const payu = provider instanceof PayuProvider ? provider : null;
  return {
    name: provider.name,
    notifyUrl: payu ? payuNotifyUrl(services.config.publicUrl) : null,
    payu: payu ? { posId: payu.config.posId, apiUrl: payu.config.apiUrl } : null,
    lastSuccessAt: provider.health.lastSuccessAt,
    lastNotificationAt: provider.health.lastNotificationAt,
  };
}
