import type { OfferRow } from "../db/schema.ts";

/** How many offers a process remembers; past it, it starts again. */
const MAX_OFFERS = 10_000;

/**
 * Offers as payment creates last wrote against them, by organisation and `qrId`. Under load a
 * read on the read-only connection costs a create more than its own statements: each commit
 * makes SQLite drop that connection's page cache, so the read goes back to the WAL. A remembered
 * offer still goes through the create's rules, and the create's write inserts only while the
 * offer's `updated_at` is the one remembered: a stale entry costs a read, never a wrong payment.
 */
export class OfferCache {
  readonly #offers = new Map<string, OfferRow>();

  get(orgId: number, qrId: string): OfferRow | undefined {
    return this.#offers.get(`${orgId}/${qrId}`);
  }

  remember(offer: OfferRow): void {
    if (this.#offers.size >= MAX_OFFERS) this.#offers.clear();
    this.#offers.set(`${offer.org_id}/${offer.public_id}`, offer);
  }

  forget(orgId: number, qrId: string): void {
    this.#offers.delete(`${orgId}/${qrId}`);
  }
}
