/** Developers -> Checkout sessions, where the area is mounted. */
export const CHECKOUT_SETTINGS_HREF = "/panel/developers/checkout";

/** The preview page: the `embedLink` of every preview session. */
export const PREVIEW_HREF = `${CHECKOUT_SETTINGS_HREF}/preview`;
