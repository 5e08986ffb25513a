/** How full a SQLite WAL is: its frames, and how many of them the database file already holds. */
export interface WalState {
  /** Frames written since the WAL last started over from its beginning. */
  frames: number;
  /** Of those, the frames checkpointed (copied into the database file). */
  backfilled: number;
  /** Bytes a frame takes in the WAL file: a page and its 24-byte header. */
  frameBytes: number;
}

/** The wal-index format every SQLite since 3.7.0 shares (https://sqlite.org/walformat.html). */
const INDEX_VERSION = 3007000;
/** The header's first copy (48 bytes), its second copy, then nBackfill. */
const HEADER_BYTES = 100;

/**
 * Reads a WAL's state from the wal-index header at the start of its -shm file, in a few
 * microseconds: the -wal file's size cannot tell, as SQLite writes it again from its start once
 * every frame is checkpointed. The header is in the host's byte order.
 */
export class WalIndex {
  readonly #path: string;
  readonly #buffer = new Uint8Array(HEADER_BYTES);
  #file: Deno.FsFile | null = null;

  constructor(shmPath: string) {
    this.#path = shmPath;
  }

  /** The WAL's state, or null while SQLite has not set the index up. */
  read(): WalState | null {
    try {
      this.#file ??= Deno.openSync(this.#path, { read: true });
      this.#file.seekSync(0, Deno.SeekMode.Start);
      if (this.#file.readSync(this.#buffer) !== HEADER_BYTES) return null;
    } catch {
      // Not created yet: SQLite makes it at a connection's first read.
      return null;
    }
    const words = new Uint32Array(this.#buffer.buffer);
    if (words[0] !== INDEX_VERSION || this.#buffer[12] !== 1) return null;
    // szPage is a u16 at offset 14; 65536, which it cannot hold, is stored as 1.
    const pageSize = new Uint16Array(this.#buffer.buffer)[7];
    return {
      frames: words[4],
      backfilled: words[24],
      frameBytes: (pageSize === 1 ? 65536 : pageSize) + 24,
    };
  }

  /**
   * Closes the file. NOTE: call it only once this process's SQLite connections to the database
   * are closed: closing any descriptor of a file drops every POSIX lock the process holds on it,
   * and SQLite's locks on the -shm file keep other processes from resetting the index.
   */
  close(): void {
    this.#file?.close();
    this.#file = null;
  }
}
