import { ApiError } from "../errors.ts";
import type { PaymentProvider } from "./mod.ts";

/**
 * Throws 400 `provider_unsupported` for a recurring offer when the provider cannot charge
 * renewals: a subscription would start and never be renewed.
 */
export function requireRenewals(
  provider: PaymentProvider,
  offer: { recurring: boolean; qrId?: string },
): void {
  if (!offer.recurring || provider.renewals !== null) return;
  throw new ApiError(
    "provider_unsupported",
    `Recurring offers need a payment provider that can charge renewals without the customer; ${provider.name} cannot (it keeps no card or BLIK token), so ${
      offer.qrId
        ? `the recurring offer '${offer.qrId}' cannot be paid`
        : "recurring offers cannot be created"
    } in this environment.`,
    { param: offer.qrId ? "qrId" : "recurring" },
  );
}
