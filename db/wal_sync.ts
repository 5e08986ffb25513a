/**
 * Flushes a SQLite WAL file to disk off the event loop: fdatasync runs on Deno's blocking
 * thread pool, so requests keep being served meanwhile. The group-commit writer calls it once
 * per batch, and a batch's flush may overlap the next one's.
 */
export class WalSync {
  readonly #path: string;
  #file: Promise<Deno.FsFile> | null = null;

  constructor(walPath: string) {
    this.#path = walPath;
  }

  /** Resolves once everything written to the WAL before this call is on disk. */
  async sync(): Promise<void> {
    // fdatasync of any descriptor of the file flushes its data, whoever wrote it.
    this.#file ??= Deno.open(this.#path, { read: true, write: true });
    let file: Deno.FsFile;
    try {
      file = await this.#file;
    } catch (error) {
      this.#file = null;
      throw error;
    }
    await file.syncData();
  }

  /** Closes the file handle. */
  close(): void {
    this.#file?.then((file) => file.close(), () => {});
    this.#file = null;
  }
}
