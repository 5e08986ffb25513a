/**
 * Failures of the storage under a database (disk full, read-only, I/O error, failed fsync), told
 * apart from failures of a statement, and the database's state: taking writes or not.
 */

/**
 * SQLite result codes that say the storage, not the statement, refused the write. BUSY and
 * LOCKED ("database is locked") too: another connection held the write lock past the busy
 * timeout, as one left from before a libSQL server restarted does for a while. Retry later.
 */
const STORAGE_CODES = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED)/;

/** How often a database that cannot take writes is tried again while nothing else writes. */
const PROBE_INTERVAL_MS = 2_000;

/** A write failed because the storage cannot take it; nothing of it was acknowledged. */
export class StorageUnavailableError extends Error {
  constructor(database: string, cause: unknown) {
    super(`The database ${database} cannot take writes: ${describe(cause)}`, { cause });
    this.name = "StorageUnavailableError";
  }
}

/** A database file cannot be opened or written at start; the message says where and what to do. */
export class StorageOpenError extends Error {
  constructor(path: string, cause: unknown) {
    const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".";
    super(
      `Cannot use the database ${path}: ${describe(cause)}. Make the folder ${folder} exist and ` +
        "be writable by the user running Paystead, or point DATA_DIR (--data-dir) at one that is.",
      { cause },
    );
    this.name = "StorageOpenError";
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Tells whether `error` is SQLite saying the storage refused a write. */
function isStorageFailure(error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true;
  if (typeof error !== "object" || error === null) return false;
  // node:sqlite reports SQLite's extended code as `errcode`, @libsql/client as `rawCode`.
  const { code, rawCode, errcode } = error as {
    code?: unknown;
    rawCode?: unknown;
    errcode?: unknown;
  };
  if (typeof code === "string" && STORAGE_CODES.test(code)) return true;
  const extended = typeof errcode === "number" ? errcode : rawCode;
  // The low byte is the primary code (13 FULL, 8 READONLY, 10 IOERR, 14 CANTOPEN, 5 BUSY,
  // 6 LOCKED).
  return typeof extended === "number" && [5, 6, 8, 10, 13, 14].includes(extended & 0xff);
}

/**
 * Whether one database takes writes. A storage failure turns it off and starts a probe write
 * every few seconds; any write that commits turns it back on. Listeners hear each change once,
 * so a full disk is logged once, not once per request.
 */
export class StorageHealth {
  readonly #database: string;
  readonly #isUnavailable: (error: unknown) => boolean;
  readonly #listeners = new Set<(writable: boolean, error?: StorageUnavailableError) => void>();
  #probe: (() => Promise<void>) | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #writable = true;

  /**
   * `database` names it in messages (never with its credentials). `isUnavailable` tells the
   * failures of the way to the storage (a libSQL server that cannot be reached) from those of
   * statements; SQLite's storage codes are told apart either way.
   */
  constructor(database: string, isUnavailable: (error: unknown) => boolean = () => false) {
    this.#database = database;
    this.#isUnavailable = isUnavailable;
  }

  /** Whether the last write that reached the storage succeeded. */
  get writable(): boolean {
    return this.#writable;
  }

  /** Sets the write tried while the storage fails. */
  setProbe(probe: () => Promise<void>): void {
    this.#probe = probe;
  }

  /** Calls `listener` when the database stops or starts taking writes. */
  onChange(
    listener: (writable: boolean, error?: StorageUnavailableError) => void,
  ): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Wraps a storage failure as `StorageUnavailableError` and records it; passes others on. */
  classify(error: unknown): unknown {
    return isStorageFailure(error) || this.#isUnavailable(error) ? this.fail(error) : error;
  }

  /** Records `error` (a failed fsync, say) as a storage failure. */
  fail(error: unknown): StorageUnavailableError {
    const failure = error instanceof StorageUnavailableError
      ? error
      : new StorageUnavailableError(this.#database, error);
    if (this.#writable) {
      this.#writable = false;
      this.#schedule();
      this.#emit(false, failure);
    }
    return failure;
  }

  /** Records a committed, durable write. */
  succeeded(): void {
    if (this.#writable) return;
    this.#writable = true;
    this.#cancel();
    this.#emit(true);
  }

  /** Stops probing (the database is closing). */
  stop(): void {
    this.#cancel();
    this.#probe = null;
  }

  #emit(writable: boolean, error?: StorageUnavailableError): void {
    for (const listener of this.#listeners) {
      try {
        listener(writable, error);
      } catch {
        // A listener's failure must not change what the write reports.
      }
    }
  }

  #schedule(): void {
    if (this.#timer !== null || this.#probe === null) return;
    const timer = setTimeout(() => {
      this.#timer = null;
      const probe = this.#probe;
      if (this.#writable || probe === null) return;
      // The probe's outcome reaches classify() or succeeded() through the write path.
      probe().catch(() => {}).finally(() => {
        if (!this.#writable) this.#schedule();
      });
    }, PROBE_INTERVAL_MS);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  #cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
