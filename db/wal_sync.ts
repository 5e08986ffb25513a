/**
 * Flushes a SQLite WAL file to disk off the event loop, coalescing callers: every `sync()`
 * resolves after an fsync that began after the call, so all the commits made before it are
 * durable. Many concurrent commits share one fsync.
 */
export class WalSync {
  readonly #path: string;
  #file: Deno.FsFile | null = null;
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;

  constructor(walPath: string) {
    this.#path = walPath;
  }

  /** Resolves once everything written to the WAL before this call is on disk. */
  sync(): Promise<void> {
    if (!this.#running) return this.#start();
    // One more fsync after the running one covers every caller arriving meanwhile.
    this.#next ??= this.#running.catch(() => {}).then(() => {
      this.#next = null;
      return this.#start();
    });
    return this.#next;
  }

  /** Closes the file handle. */
  close(): void {
    this.#file?.close();
    this.#file = null;
  }

  #start(): Promise<void> {
    const run = this.#flush().finally(() => {
      if (this.#running === run) this.#running = null;
    });
    this.#running = run;
    return run;
  }

  async #flush(): Promise<void> {
    // fdatasync of any descriptor of the file flushes its data, whoever wrote it; it runs on
    // Deno's blocking thread pool, so requests keep being served meanwhile.
    this.#file ??= await Deno.open(this.#path, { read: true, write: true });
    await this.#file.syncData();
  }
}
