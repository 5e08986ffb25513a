import { LocalSqliteConnection } from "../db/local_sqlite.ts";
import { WalCheckpointer } from "../db/wal_checkpoint.ts";
import { WalIndex } from "../db/wal_index.ts";

const BATCHES = Number(Deno.env.get("BENCH_BATCHES") ?? 6000);
/** Rows per batch: about a create batch's writes under load. */
const ROWS = 14;

/**
 * Event-loop time of COMMIT on a writer like openStore's, with SQLite's automatic checkpoint (it
 * runs inside COMMIT every 1000 pages) and with the worker's checkpoints, in one run. The fsync
 * of the WAL is left out: it runs off the event loop in both.
 */
async function commitTimes(worker: boolean): Promise<number[]> {
  const dir = await Deno.makeTempDir({ prefix: "paystead-commit-" });
  const path = `${dir}/bench.db`;
  const writer = new LocalSqliteConnection(path, {
    busyTimeoutMs: 5000,
    readOnly: false,
    syncOnCommit: false,
    checkpointOnCommit: !worker,
  });
  writer.exec(
    "CREATE TABLE rows (id INTEGER PRIMARY KEY, key TEXT UNIQUE, org INTEGER, body TEXT)",
  );
  writer.exec("CREATE INDEX rows_org ON rows (org, id)");
  const index = new WalIndex(`${path}-shm`);
  const checkpointer = worker ? new WalCheckpointer(path, index, { busyTimeoutMs: 5000 }) : null;
  const times: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    const hold = checkpointer?.beforeBatch();
    if (hold) await hold;
    writer.exec("BEGIN IMMEDIATE");
    for (let row = 0; row < ROWS; row++) {
      await writer.execute({
        sql: "INSERT INTO rows (key, org, body) VALUES (?, ?, ?)",
        args: [crypto.randomUUID(), row % 7, "x".repeat(300)],
      });
    }
    const started = performance.now();
    writer.exec("COMMIT");
    times.push(performance.now() - started);
    checkpointer?.committed();
    // Lets the worker's answers in, as a server's event loop would.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  await checkpointer?.close();
  writer.close();
  index.close();
  await Deno.remove(dir, { recursive: true });
  return times.sort((a, b) => a - b);
}

function describe(name: string, times: number[]): string {
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} us`;
  const at = (q: number) => us(times[Math.floor(q * (times.length - 1))]);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  return `${name.padEnd(28)} mean ${us(mean)}, p50 ${at(0.5)}, p99 ${at(0.99)}, ` +
    `p99.9 ${at(0.999)}, max ${at(1)}`;
}

console.log(`COMMIT on the event loop, ${BATCHES} batches of ${ROWS} rows`);
console.log(describe("SQLite's autocheckpoint", await commitTimes(false)));
console.log(describe("checkpoints in the worker", await commitTimes(true)));
