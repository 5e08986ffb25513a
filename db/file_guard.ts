/**
 * SQLite maps a WAL database's `-shm` file (the WAL index) into memory and stores into it on
 * reads too: a reader claims a read mark, a commit or a checkpoint updates the index. Once the
 * file is made immutable (`chattr +i`), Linux answers such a store with SIGBUS, which ends the
 * process; an error code never comes. So before SQLite touches a file database, a `statx` on
 * descriptors held open here (about 2 µs, no path lookup) says whether its files are immutable
 * or deleted; the storage is then unavailable (503) and SQLite is not called. A file found fine
 * is not asked again within a millisecond: a batch's statements share one answer. (The check and
 * the call are two steps either way; what it prevents is a process that keeps calling SQLite
 * after the change, not a change landing between them.)
 */

const STATX_AT_EMPTY_PATH = 0x1000;
const AT_FDCWD = -100;
const STATX_NLINK = 0x4;
const STATX_ATTR_IMMUTABLE = 0x10;
const O_RDONLY_CLOEXEC = 0o2000000;

const SYMBOLS = {
  statx: { parameters: ["i32", "buffer", "i32", "u32", "buffer"], result: "i32" },
  open: { parameters: ["buffer", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];
let libc: Libc | null | undefined;

/** The C library's calls; null where they are not there (not Linux, or no FFI permission). */
function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    libc = Deno.build.os === "linux" ? Deno.dlopen("libc.so.6", SYMBOLS).symbols : null;
  } catch {
    libc = null;
  }
  return libc;
}

const EMPTY_PATH = new Uint8Array([0]);

/** Why a statx answer forbids SQLite the file `path`, or null. */
function problemOf(path: string, view: DataView): string | null {
  // struct statx: stx_attributes is the u64 at offset 8, stx_nlink the u32 at offset 16.
  if ((Number(view.getBigUint64(8, true)) & STATX_ATTR_IMMUTABLE) !== 0) {
    return `${path} is immutable (chattr +i)`;
  }
  if (view.getUint32(16, true) === 0) return `${path} was deleted`;
  return null;
}

/**
 * Why SQLite must not read the file database at `path` now (its -shm file is immutable), or
 * null; by path, for a one-off check. It opens no descriptor: in a process whose SQLite
 * connections use the database (a scheduled backup runs in the server's worker), closing one
 * would drop every POSIX lock the process holds on the file, and the next process to open the
 * database would take itself for the first, reset the -shm file under the server's mapping, and
 * the server would die of SIGBUS.
 */
export function readProblemAt(path: string): string | null {
  const calls = loadLibc();
  if (!calls) return null;
  const shm = `${path}-shm`;
  const buffer = new Uint8Array(256);
  const found = calls.statx(
    AT_FDCWD,
    new TextEncoder().encode(`${shm}\0`),
    0,
    STATX_NLINK,
    buffer,
  );
  // Not there: SQLite makes it at a connection's first read.
  if (found !== 0) return null;
  return problemOf(shm, new DataView(buffer.buffer));
}
/** How long a file found fine stays fine without asking again. */
const FINE_FOR_MS = 1;

/** One file watched through a descriptor opened at its first check. */
class WatchedFile {
  readonly path: string;
  #fd = -1;
  #fineUntil = 0;
  readonly #buffer = new Uint8Array(256);
  readonly #view = new DataView(this.#buffer.buffer);

  constructor(path: string) {
    this.path = path;
  }

  /** Why SQLite must not touch the file now, or null. */
  problem(calls: Libc): string | null {
    const now = performance.now();
    if (now < this.#fineUntil) return null;
    if (this.#fd < 0) {
      this.#fd = calls.open(new TextEncoder().encode(`${this.path}\0`), O_RDONLY_CLOEXEC);
      // Not there yet: SQLite makes the -shm file at a connection's first read.
      if (this.#fd < 0) return null;
    }
    if (calls.statx(this.#fd, EMPTY_PATH, STATX_AT_EMPTY_PATH, STATX_NLINK, this.#buffer) !== 0) {
      return null;
    }
    const problem = problemOf(this.path, this.#view);
    if (problem === null) this.#fineUntil = now + FINE_FOR_MS;
    return problem;
  }

  close(calls: Libc): void {
    if (this.#fd >= 0) calls.close(this.#fd);
    this.#fd = -1;
  }
}

/** Watches a file database and its `-shm` file; see the module's comment. */
export class FileGuard {
  readonly #database: WatchedFile;
  readonly #index: WatchedFile;

  constructor(path: string) {
    this.#database = new WatchedFile(path);
    this.#index = new WatchedFile(`${path}-shm`);
  }

  /** Why SQLite must not read now (the -shm file it stores into is immutable or gone), or null. */
  readProblem(): string | null {
    const calls = loadLibc();
    return calls && this.#index.problem(calls);
  }

  /** Why SQLite must not write now (its -shm or database file is immutable or gone), or null. */
  writeProblem(): string | null {
    const calls = loadLibc();
    return calls && (this.#index.problem(calls) ?? this.#database.problem(calls));
  }

  /**
   * Closes the descriptors. NOTE: only once this process's SQLite connections to the database
   * are closed: closing any descriptor of a file drops every POSIX lock the process holds on it.
   */
  close(): void {
    const calls = loadLibc();
    if (!calls) return;
    this.#index.close(calls);
    this.#database.close(calls);
  }
}
