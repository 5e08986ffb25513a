import type {
  CheckpointAnswer,
  CheckpointMode,
  CheckpointRequest,
} from "./wal_checkpoint_worker.ts";
import type { WalIndex, WalState } from "./wal_index.ts";

/** The result of one checkpoint, in frames; null when it failed. */
type CheckpointResult = { busy: number; log: number; checkpointed: number } | null;

/** Frames not yet checkpointed that start a checkpoint: SQLite's own autocheckpoint threshold. */
const CHECKPOINT_FRAMES = 1000;
/** WAL size past which writes wait for a checkpoint that catches up, so the WAL starts over. */
const MAX_WAL_BYTES = 16 * 1024 * 1024;
/** Checkpoints tried while writes wait, before they go on anyway. */
const CATCH_UP_ATTEMPTS = 3;
/** How long the worker outlives its last checkpoint: its isolate holds about 20 MiB resident. */
const WORKER_IDLE_MS = 5_000;

/**
 * Checkpoints a file database's WAL in a worker, on its own connection, in place of SQLite's
 * automatic checkpoint, which runs inside a COMMIT on the event loop. The worker starts at the
 * first checkpoint needed and stops once none was needed for a while: an idle or small database
 * never pays for its isolate, nor does a process between bursts of writes.
 */
export class WalCheckpointer {
  readonly #path: string;
  readonly #index: WalIndex;
  readonly #busyTimeoutMs: number;
  readonly #checkpointFrames: number;
  readonly #maxWalBytes: number;
  readonly #blocked: () => boolean;
  readonly #workerIdleMs: number;
  #worker: Worker | null = null;
  #retireTimer: ReturnType<typeof setTimeout> | null = null;
  /** The last retired worker's connection closing (settled long after, mostly). */
  #retiring: Promise<void> = Promise.resolve();
  #wal: WalState | null = null;
  #running: Promise<CheckpointResult> | null = null;
  #catchingUp: Promise<void> | null = null;
  #recovering: Promise<void> | null = null;
  /** Whether the last checkpoint copied every frame it found: no reader held any back. */
  #lastCaughtUp = true;
  /** After a catch-up gave up: the WAL's frames before writes are held again. */
  #holdAfter = 0;
  #closed = false;

  constructor(
    path: string,
    index: WalIndex,
    options: {
      busyTimeoutMs: number;
      checkpointFrames?: number;
      maxWalBytes?: number;
      /** True while the files must not be touched (FileGuard): no checkpoint starts. */
      blocked?: () => boolean;
      workerIdleMs?: number;
    },
  ) {
    this.#path = path;
    this.#index = index;
    this.#busyTimeoutMs = options.busyTimeoutMs;
    this.#checkpointFrames = options.checkpointFrames ?? CHECKPOINT_FRAMES;
    this.#maxWalBytes = options.maxWalBytes ?? MAX_WAL_BYTES;
    this.#blocked = options.blocked ?? (() => false);
    this.#workerIdleMs = options.workerIdleMs ?? WORKER_IDLE_MS;
  }

  /** Whether the worker and its connection are up. */
  get workerRunning(): boolean {
    return this.#worker !== null;
  }

  /** After a commit: starts a checkpoint once enough frames wait for one and none is running. */
  committed(): void {
    const wal = this.#wal = this.#index.read();
    if (this.#running || this.#closed || wal === null) return;
    const waiting = wal.frames - wal.backfilled;
    if (waiting >= this.#checkpointFrames || (waiting > 0 && this.#checkpointsEveryCommit(wal))) {
      this.#start();
    }
  }

  /**
   * Whether every commit should start a checkpoint: past half the bound, unless a reader (a
   * backup) held the last checkpoint's frames back and the next would copy nothing either.
   */
  #checkpointsEveryCommit(wal: WalState): boolean {
    // NOTE: one of these small checkpoints soon ends between two commits, and the next commit
    // starts the WAL over by itself; otherwise the hold at the bound waits for what the last
    // commits wrote rather than for a full checkpoint's worth (under load 1-2 ms, not 8).
    return this.#lastCaughtUp && wal.frames * wal.frameBytes * 2 >= this.#maxWalBytes;
  }

  /**
   * Before a write batch: nothing, or, once the WAL is past its bound, a promise (it never
   * rejects) that settles when a checkpoint caught up with every frame, so the batch's commit
   * writes the WAL from its start again.
   */
  beforeBatch(): Promise<void> | undefined {
    if (this.#catchingUp) return this.#catchingUp;
    const wal = this.#wal;
    if (this.#closed || wal === null || wal.backfilled === wal.frames) return undefined;
    if (wal.frames * wal.frameBytes < this.#maxWalBytes || wal.frames < this.#holdAfter) {
      return undefined;
    }
    // NOTE: under steady writes a passive checkpoint never copies the last frames, and SQLite
    // starts the WAL over only once all are copied; holding this process's writes lets one
    // catch up. A reader (a backup) may pin frames for seconds: the hold then gives up after a
    // few tries and comes back only once the WAL has grown by another checkpoint's worth.
    this.#catchingUp = this.#catchUp().finally(() => this.#catchingUp = null);
    return this.#catchingUp;
  }

  /**
   * Before the first write after the storage failed (a full disk whose space came back): a
   * promise (it never rejects) that settles once a checkpoint copied every frame into the
   * database file and cut the WAL file to nothing, or failed.
   */
  recover(): Promise<void> {
    // NOTE: SQLite never shrinks a WAL file by itself: without this, the frames written once
    // writes resume fill the space just freed, behind a WAL that keeps what it held.
    this.#recovering ??= this.#truncate().finally(() => this.#recovering = null);
    return this.#recovering;
  }

  /** Waits for a checkpoint running, then stops the worker and closes its connection. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retireTimer !== null) clearTimeout(this.#retireTimer);
    await this.#running;
    await this.#retiring;
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await this.#ask(worker, { op: "close" });
    worker?.terminate();
  }

  async #catchUp(): Promise<void> {
    for (let attempt = 0; attempt < CATCH_UP_ATTEMPTS && !this.#closed; attempt++) {
      const result = await (this.#running ?? this.#start());
      if (result && result.busy === 0 && result.checkpointed === result.log) {
        this.#holdAfter = 0;
        return;
      }
    }
    this.#holdAfter = (this.#wal?.frames ?? 0) + this.#checkpointFrames;
  }

  async #truncate(): Promise<void> {
    // One request at a time goes to the worker: a passive checkpoint running finishes first.
    while (this.#running) await this.#running;
    if (!this.#closed) await this.#start("TRUNCATE");
  }

  #start(mode: CheckpointMode = "PASSIVE"): Promise<CheckpointResult> {
    // A worker that cannot even start is one more failed checkpoint (see #checkpoint).
    const running = this.#checkpoint(mode).catch(() => null).then((result) => {
      this.#lastCaughtUp = result !== null && result.busy === 0 &&
        result.checkpointed === result.log;
      if (result && result.busy === 0 && this.#wal) {
        this.#wal = { ...this.#wal, frames: result.log, backfilled: result.checkpointed };
      }
      return result;
    }).finally(() => {
      this.#running = null;
      this.#retireWhenIdle();
    });
    this.#running = running;
    return running;
  }

  /** Stops the worker once no checkpoint started for `workerIdleMs`. */
  #retireWhenIdle(): void {
    if (this.#retireTimer !== null) clearTimeout(this.#retireTimer);
    this.#retireTimer = setTimeout(() => {
      this.#retireTimer = null;
      const worker = this.#worker;
      if (this.#running || this.#closed || worker === null) return;
      this.#worker = null;
      // Its connection closes first, as at close(): the next checkpoint starts a new worker.
      this.#retiring = this.#ask(worker, { op: "close" }).then(() => worker.terminate());
    }, this.#workerIdleMs);
    Deno.unrefTimer(this.#retireTimer);
  }

  async #checkpoint(mode: CheckpointMode): Promise<CheckpointResult> {
    if (this.#blocked()) return null;
    this.#worker ??= new Worker(new URL("./wal_checkpoint_worker.ts", import.meta.url), {
      type: "module",
    });
    const answer = await this.#ask(this.#worker, {
      op: "checkpoint",
      path: this.#path,
      busyTimeoutMs: this.#busyTimeoutMs,
      mode,
    });
    // NOTE: a failed checkpoint (full disk, I/O error) is dropped: the frames stay in the WAL,
    // every commit stays readable and durable, and the next commit starts another. A storage
    // failure that matters to writes fails their own WAL write or fsync, which reports it.
    return answer && "ok" in answer && answer.ok ? answer : null;
  }

  /** Sends `request` to `worker` and resolves with its answer, or null if the worker died. */
  #ask(worker: Worker, request: CheckpointRequest): Promise<CheckpointAnswer | null> {
    return new Promise((resolve) => {
      worker.onmessage = (event: MessageEvent<CheckpointAnswer>) => resolve(event.data);
      worker.onerror = (event) => {
        // Handled here, an error in the worker cannot end the process; a new one starts next.
        event.preventDefault();
        worker.terminate();
        if (this.#worker === worker) this.#worker = null;
        resolve(null);
      };
      worker.postMessage(request);
    });
  }
}
