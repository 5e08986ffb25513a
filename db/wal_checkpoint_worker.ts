import { DatabaseSync } from "node:sqlite";

/**
 * A job for the checkpoint worker: checkpoint the database at `path` (PASSIVE, or TRUNCATE: copy
 * every frame and cut the WAL file to nothing), or close its connection.
 */
export type CheckpointRequest =
  | { op: "checkpoint"; path: string; busyTimeoutMs: number; mode: CheckpointMode }
  | { op: "close" };

/** How a checkpoint runs: see SQLite's wal_checkpoint. */
export type CheckpointMode = "PASSIVE" | "TRUNCATE";

/** The worker's answer: wal_checkpoint's result row (in frames), why it failed, or closed. */
export type CheckpointAnswer =
  | { ok: true; busy: number; log: number; checkpointed: number }
  | { ok: false; message: string }
  | { closed: true };

let connection: DatabaseSync | null = null;

function checkpoint(path: string, busyTimeoutMs: number, mode: CheckpointMode): CheckpointAnswer {
  try {
    if (connection === null) {
      connection = new DatabaseSync(path, { timeout: busyTimeoutMs });
      // A checkpoint then fsyncs the WAL before it copies frames and the database file before
      // the WAL may start over: a crash loses nothing committed.
      connection.exec("PRAGMA synchronous = FULL");
    }
    const row = connection.prepare(`PRAGMA wal_checkpoint(${mode})`).get() as {
      busy: number;
      log: number;
      checkpointed: number;
    };
    return { ok: true, busy: row.busy, log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

// NOTE: a checkpoint copies pages into the database file and fsyncs both files, several ms of
// synchronous native calls; here, off the server's event loop, it never stalls a request.
(self as unknown as Worker).onmessage = (event: MessageEvent<CheckpointRequest>) => {
  const request = event.data;
  if (request.op === "checkpoint") {
    (self as unknown as Worker).postMessage(
      checkpoint(request.path, request.busyTimeoutMs, request.mode),
    );
    return;
  }
  connection?.close();
  connection = null;
  (self as unknown as Worker).postMessage({ closed: true } satisfies CheckpointAnswer);
};
