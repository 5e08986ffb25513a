import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { requireSandbox } from "../payments/mod.ts";
import { type CheckoutSessionRecord, createCheckoutSession, ownOrigin } from "./mod.ts";
import { embedOriginOf } from "./origins.ts";

/** Metadata that marks a session as the panel's preview, for the merchant's webhook handler. */
export const PREVIEW_METADATA = { paysteadPreview: "true" } as const;

/**
 * Creates a checkout session that the panel embeds on its own page, `embedLink` on this
 * environment's own origin. The merchant's allowlist names their shops, not Paystead, so the
 * own origin is allowed for this session alone; the session is real (same rules, events and
 * webhooks as any other) and sandbox-only, so no real money can move through a preview.
 */
export async function createPreviewSession(
  ctx: OrgContext,
  qrId: string,
  embedLink: string,
): Promise<CheckoutSessionRecord> {
  requireSandbox(ctx.services);
  if (new URL(embedLink).origin !== ownOrigin(ctx.services)) {
    throw new ApiError("parameter_invalid", "A preview is embedded on Paystead's own origin.", {
      param: "embedLink",
    });
  }
  try {
    embedOriginOf(embedLink, ctx.services.environment);
  } catch {
    throw new ApiError(
      "parameter_invalid",
      "The preview embeds checkout on this server's own address, which checkout allows only " +
        `over https:// (or http://localhost); this server's PUBLIC_URL is ${ctx.services.config.publicUrl}.`,
    );
  }
  return await createCheckoutSession(ctx, qrId, {
    embedLink,
    expiresInMinutes: 30,
    metadata: { ...PREVIEW_METADATA },
  }, { ownOriginAllowed: true });
}
