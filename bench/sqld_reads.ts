/**
 * What a read costs a libSQL server, and what one Paystead process over it serves:
 * - the server's CPU per one-row read, on a stream opened per read (how @libsql/client sends an
 *   `execute`) against streams kept open (`RemoteReader`, what Paystead does);
 * - `GET /api/v1/payments/{id}` under wrk against one sandbox process over that server.
 * `deno run -A bench/sqld_reads.ts` (BENCH_SECONDS, default 5).
 */
import { openWs } from "@libsql/hrana-client";
import { RemoteConnection } from "../db/remote_connection.ts";
import { RemoteReader } from "../db/remote_reader.ts";
import { demoApiKey, startPaystead } from "../tests/support/processes.ts";
import { startSqld } from "../tests/support/sqld.ts";
import { cpuSeconds } from "./cpu.ts";
import { runWrk } from "./wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
const READ = { sql: "SELECT (SELECT MAX(id) FROM events) AS latest", args: [] };

/** Two readers reading back to back: reads per second and the server's CPU per read. */
async function readCost(pid: number, read: () => Promise<unknown>): Promise<string> {
  const cpuBefore = await cpuSeconds(pid);
  const started = performance.now();
  let reads = 0;
  await Promise.all([0, 1].map(async () => {
    while (performance.now() - started < SECONDS * 1000) {
      await read();
      reads++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = await cpuSeconds(pid) - cpuBefore;
  return `${(reads / elapsed).toFixed(0)} reads/s, server CPU ${
    (cpu / reads * 1e6).toFixed(0)
  } us per read`;
}

const dir = await Deno.makeTempDir({ prefix: "paystead-sqld-reads-" });
const accounts = await startSqld(`${dir}/accounts`);
const sandbox = await startSqld(`${dir}/sandbox`);
const ws = (url: string) => url.replace("http://", "ws://");
const server = await startPaystead(`${dir}/app`, {
  DATABASE_URL: ws(sandbox.url),
  ACCOUNTS_DATABASE_URL: ws(accounts.url),
});
try {
  const pid = sandbox.pid;
  const perRead = openWs(ws(sandbox.url));
  const readOnItsOwnStream = async () => {
    const stream = perRead.openStream();
    try {
      await stream.query([READ.sql, READ.args]);
    } finally {
      stream.close();
    }
  };
  const connection = new RemoteConnection(ws(sandbox.url));
  const kept = new RemoteReader(connection);
  console.log(`libSQL server, one-row reads by two readers, ${SECONDS} s each`);
  console.log(
    `  a stream per read (@libsql/client): ${await readCost(pid, readOnItsOwnStream)}`,
  );
  console.log(
    `  streams kept open (RemoteReader):   ${await readCost(pid, () => kept.execute(READ))}`,
  );
  perRead.close();
  connection.close();

  const key = await demoApiKey(server);
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const offer = await (await fetch(`${server.url}/api/v1/qr`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Reads", amount: 1000, currency: "PLN" }),
  })).json();
  const payment = await (await fetch(`${server.url}/api/v1/payments`, {
    method: "POST",
    headers,
    body: JSON.stringify({ qrId: offer.qrId }),
  })).json();
  const get = await runWrk({
    url: `${server.url}/api/v1/payments/${payment.paymentId}`,
    method: "GET",
    headers,
    connections: 16,
    seconds: SECONDS,
  });
  console.log(
    `One sandbox process over it, GET /api/v1/payments/{id}, 16 connections: ` +
      `${get.requestsPerSecond.toFixed(0)} req/s, p50 ${get.p50Ms.toFixed(1)} ms, ` +
      `p99 ${get.p99Ms.toFixed(1)} ms, non-2xx ${get.nonSuccess}`,
  );
} finally {
  await server.stop();
  await accounts.stop();
  await sandbox.stop();
  await Deno.remove(dir, { recursive: true });
}
