/**
 * The fake's delayed work (outcomes, notification retries, expiries), tracked so that tests can
 * wait for quiet (`idle()`) instead of sleeping, and `close()` stops everything at once.
 */
export class Timers {
  #handles = new Set<ReturnType<typeof setTimeout>>();
  #sleepers = new Map<ReturnType<typeof setTimeout>, () => void>();
  #idleWaiters: (() => void)[] = [];
  #hangers: (() => void)[] = [];
  #busy = 0;
  #closed = false;

  /**
   * Runs `work` after `ms`. Background work (an order's validity, hours away) does not keep
   * `idle()` waiting.
   */
  after(ms: number, work: () => unknown, options: { background?: boolean } = {}): void {
    if (this.#closed) return;
    const counted = !options.background;
    if (counted) this.#busy++;
    const handle = setTimeout(async () => {
      this.#handles.delete(handle);
      try {
        if (!this.#closed) await work();
      } catch (error) {
        console.error("fake: delayed work failed", error);
      } finally {
        if (counted) this.#done();
      }
    }, ms);
    this.#handles.add(handle);
  }

  /** Counts `work` as busy while it runs (a notification being delivered now). */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.#busy++;
    try {
      return await work();
    } finally {
      this.#done();
    }
  }

  /** Resolves after `ms`, or at once when closed. */
  sleep(ms: number): Promise<void> {
    if (this.#closed || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const handle = setTimeout(() => {
        this.#handles.delete(handle);
        this.#sleepers.delete(handle);
        resolve();
      }, ms);
      this.#handles.add(handle);
      this.#sleepers.set(handle, resolve);
    });
  }

  /** Resolves only when closed: an answer that never comes (an acquirer that hangs). */
  hang(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#hangers.push(resolve));
  }

  /** Resolves once no counted work is scheduled or running. */
  idle(): Promise<void> {
    if (this.#busy === 0 || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Cancels everything scheduled; later calls schedule nothing. */
  close(): void {
    this.#closed = true;
    for (const handle of this.#handles) clearTimeout(handle);
    this.#handles.clear();
    this.#busy = 0;
    for (const resolve of [...this.#sleepers.values(), ...this.#idleWaiters, ...this.#hangers]) {
      resolve();
    }
    this.#sleepers.clear();
    this.#idleWaiters = [];
    this.#hangers = [];
  }

  #done(): void {
    this.#busy--;
    if (this.#busy > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
