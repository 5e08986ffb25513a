/**
 * What reads and writes cost a libSQL server, and what one Paystead process over it serves:
 * - the server's CPU per one-row read, on a stream opened per read (how @libsql/client sends an
 *   `execute`) against streams kept open (`RemoteReader`, what Paystead does);
 * - the same per write transaction (BEGIN, three inserts of a create's size, COMMIT in one batch);
 * - the round trip of a 2.4 KB statement over Deno's WebSocket and over the `ws` package's, which
 *   sets TCP_NODELAY (`RemoteConnection`);
 * - `GET /api/v1/payments/{id}` under wrk against one sandbox process over that server.
 * `deno run -A bench/sqld_streams.ts` (BENCH_SECONDS, default 5).
 */
import { BatchCond, openWs, type Stream } from "@libsql/hrana-client";
import { RemoteConnection } from "../db/remote_connection.ts";
import { RemoteReader } from "../db/remote_reader.ts";
import { demoApiKey, startPaystead } from "../tests/support/processes.ts";
import { startSqld } from "../tests/support/sqld.ts";
import { cpuSeconds } from "./cpu.ts";
import { runWrk } from "./wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
const READ = { sql: "SELECT (SELECT MAX(id) FROM events) AS latest", args: [] };
/** About a create's three rows: a payment, its event and the Idempotency-Key's stored response. */
const ROW = "x".repeat(400);

/** Two clients calling `call` back to back: calls per second and the server's CPU per call. */
async function serverCost(pid: number, unit: string, call: () => Promise<unknown>) {
  const cpuBefore = await cpuSeconds(pid);
  const started = performance.now();
  let calls = 0;
  await Promise.all([0, 1].map(async () => {
    while (performance.now() - started < SECONDS * 1000) {
      await call();
      calls++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = await cpuSeconds(pid) - cpuBefore;
  return `${(calls / elapsed).toFixed(0)} ${unit}s/s, server CPU ${
    (cpu / calls * 1e6).toFixed(0)
  } us per ${unit}`;
}

/** BEGIN, three inserts and COMMIT as one batch request on `stream`. */
async function writeTransaction(stream: Stream): Promise<void> {
  const batch = stream.batch(false);
  const begin = batch.step();
  const steps = [begin.run("BEGIN IMMEDIATE")];
  let last = begin;
  for (let i = 0; i < 3; i++) {
    const step = batch.step().condition(BatchCond.ok(last));
    steps.push(step.run(["INSERT INTO bench_rows (body) VALUES (?)", [ROW]]));
    last = step;
  }
  steps.push(batch.step().condition(BatchCond.ok(last)).run("COMMIT"));
  await batch.execute();
  await Promise.all(steps);
}

/** On a stream opened for the call and closed after it, as @libsql/client does. */
async function onItsOwnStream(
  client: ReturnType<typeof openWs>,
  call: (stream: Stream) => Promise<unknown>,
) {
  const stream = client.openStream();
  try {
    await call(stream);
  } finally {
    stream.close();
  }
}

/** The median round trip of a 2.4 KB statement on `stream`, in ms. */
async function medianRoundTrip(stream: Stream): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < 25; i++) {
    const started = performance.now();
    await stream.query(["SELECT length(?)", ["y".repeat(2400)]]);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return `${times[12].toFixed(2)} ms`;
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
  const perCall = openWs(ws(sandbox.url));
  const connection = new RemoteConnection(ws(sandbox.url));
  const reader = new RemoteReader(connection);
  const writer = connection.keptStream();
  await writer.get().run("CREATE TABLE bench_rows (id INTEGER PRIMARY KEY, body TEXT)");
  console.log(`libSQL server, two clients back to back, ${SECONDS} s each`);
  console.log(
    `  one-row reads, a stream each (@libsql/client): ${await serverCost(
      pid,
      "read",
      () => onItsOwnStream(perCall, (stream) => stream.query([READ.sql, READ.args])),
    )}`,
  );
  console.log(
    `  one-row reads, streams kept open (Paystead):   ${await serverCost(
      pid,
      "read",
      () => reader.execute(READ),
    )}`,
  );
  const keptWriters = [connection.keptStream(), connection.keptStream()];
  let turn = 0;
  console.log(
    `  write transactions, a stream each:            ${await serverCost(
      pid,
      "write",
      () => onItsOwnStream(perCall, writeTransaction),
    )}`,
  );
  console.log(
    `  write transactions, streams kept open:        ${await serverCost(
      pid,
      "write",
      () => writeTransaction(keptWriters[turn++ % 2].get()),
    )}`,
  );
  const denoStream = perCall.openStream();
  console.log(
    `A 2.4 KB statement's round trip: Deno's WebSocket ${await medianRoundTrip(denoStream)}, ` +
      `ws (TCP_NODELAY) ${await medianRoundTrip(writer.get())}`,
  );
  denoStream.close();
  perCall.close();
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
