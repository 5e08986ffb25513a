/**
 * A bound on how many of one kind of heavy work (a statement's reconciliation, say) a process runs
 * at once: each holds a slot from `take()` until it calls the release it got.
 */
export class WorkSlots {
  #busy = 0;

  constructor(readonly limit: number) {}

  /** A release for a free slot, or null when all `limit` are taken. */
  take(): (() => void) | null {
    if (this.#busy >= this.limit) return null;
    this.#busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#busy--;
    };
  }
}
