import { sql } from "kysely";

/**
 * The `version` of a row after a change: every UPDATE of a payment, refund, subscription or
 * checkout session sets it, so the version grows in the same statement as the change it counts.
 */
export const nextVersion = sql<number>`version + 1`;
