/** Developers -> Checkout sessions, where the area is mounted. */
export const CHECKOUT_SETTINGS_PATH = "/panel/developers/checkout";

/** The preview page: the `embedLink` of every preview session. */
export const PREVIEW_PATH = `${CHECKOUT_SETTINGS_PATH}/preview`;
