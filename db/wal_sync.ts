/**
 * Flushes a SQLite WAL file to disk off the event loop: fdatasync runs on Deno's blocking
 * thread pool, so requests keep being served meanwhile. The group-commit writer calls it once
 * per batch and starts the next batch only after it, so calls never overlap.
 */
export class WalSync {
  readonly #path: string;
  #file: Deno.FsFile | null = null;

  constructor(walPath: string) {
    this.#path = walPath;
  }

  /** Resolves once everything written to the WAL before this call is on disk. */
  async sync(): Promise<void> {
    // fdatasync of any descriptor of the file flushes its data, whoever wrote it.
    this.#file ??= await Deno.open(this.#path, { read: true, write: true });
    await this.#file.syncData();
  }

  /** Closes the file handle. */
  close(): void {
    this.#file?.close();
    this.#file = null;
  }
}
