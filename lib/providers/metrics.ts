import { Counter, type Registry } from "../prometheus.ts";
import type { ProviderHealth } from "./health.ts";

/** Adds the payment provider's counters to `registry`, read from `health` at each scrape. */
export function registerProviderMetrics(registry: Registry, health: ProviderHealth): void {
  new Counter({
    name: "paystead_provider_notifications_rejected_total",
    help: "Correctly signed provider notifications ignored because a field (orderId, " +
      "totalAmount, currencyCode, merchantPosId) differs from the order Paystead sent.",
    labelNames: ["field"],
    registers: [registry],
    collect() {
      // The counts live in ProviderHealth (lib/ has no metrics); they are copied at each scrape.
      this.reset();
      for (const [field, count] of health.rejectedNotifications) this.inc({ field }, count);
    },
  });
}
