/** Payments -> Export: the forms, and the files at `${EXPORT_HREF}/payments` and `/refunds`. */
export const EXPORT_HREF = "/panel/payments/export";

/** Payments -> Reconciliation: the provider's statements matched against the payments. */
export const RECONCILIATIONS_HREF = "/panel/payments/reconciliations";
