import type { Services } from "../../../lib/context.ts";

/** Developers -> Checkout sessions, where the area is mounted. */
export const CHECKOUT_SETTINGS_HREF = "/panel/developers/checkout";

/** The preview page: the `embedLink` of every preview session. */
export const PREVIEW_HREF = `${CHECKOUT_SETTINGS_HREF}/preview`;

/** The preview page's full URL, where preview sessions and the Quick Start's step 5 embed. */
export function previewUrl(services: Services): string {
  return `${services.config.publicUrl}${PREVIEW_HREF}`;
}
