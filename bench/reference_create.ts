/**
 * Issue 11's yardstick, on this machine: a framework-free server doing a create's durable work
 * (Deno.serve, node:sqlite, key hash lookup, JSON parse and check, offer read, then the payment,
 * event and idempotency rows Paystead writes, with the same statements on the same schema; one
 * transaction and one WAL fdatasync per group of writes, the writes that arrive during a flush
 * making the next group) beside Paystead's production process and a bare Deno.serve, each under
 * the same wrk.
 * `deno run -A bench/reference_create.ts` (BENCH_SECONDS, default 5; ROUNDS, default 2).
 *
 * `deno run -A bench/reference_create.ts serve DIR PORT` runs the reference server alone on the
 * production database in DIR (made by Paystead, so the schema and its indexes are the same).
 */
import { createHash } from "node:crypto";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { paymentCreateStatements } from "../db/payment_create.ts";
import { pendingPaymentRow } from "../lib/payments/mod.ts";
import type { SqlStatement } from "../db/libsql_dialect.ts";
import {
  type ChildServer,
  freePort,
  productionApiKey,
  startBareServer,
  startPaystead,
} from "../tests/support/processes.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 2);

function serveReference(dir: string, port: number): void {
  const db = new DatabaseSync(`${dir}/production.db`);
  db.exec("PRAGMA journal_mode = WAL");
  // The WAL is flushed below, once per group of commits, before any of them is answered.
  db.exec("PRAGMA synchronous = OFF");
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, statement = db.prepare(sql));
    return statement;
  };
  const findKey = prepare("SELECT org_id FROM api_keys WHERE secret_hash = ?");
  const findOffer = prepare(
    "SELECT id, org_id, amount, currency, recurring_interval FROM offers WHERE public_id = ? AND org_id = ? AND active = 1",
  );
  let wal: Deno.FsFile | null = null;
  let waiting: { statements: SqlStatement[]; done: (ok: boolean) => void }[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const outcomes: boolean[] = [];
      db.exec("BEGIN IMMEDIATE");
      for (const write of batch) {
        db.exec("SAVEPOINT w");
        try {
          const [payment, ...rest] = write.statements;
          const inserted = prepare(payment.sql).run(...payment.args as never[]).changes === 1;
          for (const statement of rest) prepare(statement.sql).run(...statement.args as never[]);
          db.exec("RELEASE w");
          outcomes.push(inserted);
        } catch {
          db.exec("ROLLBACK TO w");
          db.exec("RELEASE w");
          outcomes.push(false);
        }
      }
      db.exec("COMMIT");
      wal ??= await Deno.open(`${dir}/production.db-wal`, { read: true });
      await wal.syncData();
      batch.forEach((write, index) => write.done(outcomes[index]));
    }
    flushing = false;
  }

  function commit(statements: SqlStatement[]): Promise<boolean> {
    return new Promise((done) => {
      waiting.push({ statements, done });
      if (!flushing) queueMicrotask(flush);
      flushing = true;
    });
  }

  Deno.serve({ port, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const secret = request.headers.get("authorization")?.slice("Bearer ".length) ?? "";
    const key = findKey.get(createHash("sha256").update(secret).digest("hex")) as
      | { org_id: number }
      | undefined;
    if (!key) return Response.json({ error: "unauthorized" }, { status: 401 });
    const body = await request.json().catch(() => null);
    if (typeof body?.qrId !== "string") return Response.json({ error: "qrId" }, { status: 400 });
    const offer = findOffer.get(body.qrId, key.org_id) as {
      id: number;
      org_id: number;
      amount: number;
      currency: string;
      recurring_interval: string | null;
    } | undefined;
    if (!offer) return Response.json({ error: "offer" }, { status: 404 });
    const now = Date.now();
    const paymentId = `pay_${crypto.randomUUID().replaceAll("-", "")}`;
    const answer = JSON.stringify({
      paymentId,
      status: "PENDING",
      amount: offer.amount,
      currency: offer.currency,
      paymentUrl: `http://127.0.0.1:${port}/pay/${paymentId}`,
    });
    const idempotencyKey = request.headers.get("idempotency-key");
    const written = await commit(paymentCreateStatements({
      payment: pendingPaymentRow(offer, {
        publicId: paymentId,
        amount: offer.amount,
        quantity: 1,
        customerEmail: null,
        customerName: null,
        successUrl: null,
        cancelUrl: null,
        metadata: {},
        expiresAt: now + 3_600_000,
        now,
      }),
      offer,
      event: {
        public_id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
        org_id: offer.org_id,
        type: "payment.created",
        payload: JSON.stringify({ type: "payment.created", data: JSON.parse(answer) }),
        created_at: now,
      },
      key: idempotencyKey === null ? undefined : {
        key: idempotencyKey,
        fingerprint: createHash("sha256").update(JSON.stringify(body)).digest("hex"),
        lockedUntil: now,
        status: 201,
        contentType: "application/json",
        body: answer,
        createdAt: now,
      },
    }));
    if (!written) return Response.json({ error: "conflict" }, { status: 409 });
    return new Response(answer, { status: 201, headers: { "content-type": "application/json" } });
  });
}

async function pinToCpu0(server: ChildServer): Promise<void> {
  await new Deno.Command("taskset", {
    args: ["-a", "-p", "-c", "0", String(server.process.pid)],
    stdout: "null",
  }).output();
}

async function startReference(dir: string): Promise<ChildServer> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "serve", dir, String(port)],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      await (await fetch(url, { method: "POST", body: "{}" })).body?.cancel();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    process: child,
    url,
    output: () => "",
    async stop() {
      child.kill("SIGTERM");
      await Promise.all([child.stdout.cancel(), child.stderr.cancel()]);
      return await child.status;
    },
  } as unknown as ChildServer;
}

function describe(result: WrkResult): string {
  return `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${
    result.p99Ms.toFixed(1)
  } ms, non-2xx ${result.nonSuccess}`;
}

async function compare(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "paystead-reference-" });
  const key = await productionApiKey(dir);
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const paystead = await startPaystead(dir, { PAYSTEAD_ENV: "production" });
  const offer = await (await fetch(`${paystead.url}/api/v1/qr`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Reference", amount: 1000, currency: "PLN" }),
  })).json();
  await paystead.stop();
  const create = (url: string, connections: number) =>
    runWrk({
      url: `${url}/api/v1/payments`,
      method: "POST",
      body: JSON.stringify({ qrId: offer.qrId }),
      headers,
      uniqueIdempotencyKey: true,
      connections,
      seconds: SECONDS,
      cpus: "1",
    });
  console.log(`server on CPU 0, wrk (one thread) on CPU 1, ${SECONDS} s per figure`);
  for (let round = 1; round <= ROUNDS; round++) {
    const bare = await startBareServer();
    await pinToCpu0(bare);
    const bareResult = await runWrk({
      url: bare.url,
      connections: 32,
      seconds: SECONDS,
      cpus: "1",
    });
    await bare.stop();
    console.log(`round ${round}: bare Deno.serve, 32 conn: ${describe(bareResult)}`);
    for (
      const [name, start] of [
        ["reference", () => startReference(dir)],
        ["Paystead", () => startPaystead(dir, { PAYSTEAD_ENV: "production" })],
      ] as const
    ) {
      const server = await start();
      await pinToCpu0(server);
      for (const connections of [32, 1]) {
        const result = await create(server.url, connections);
        const share = (result.requestsPerSecond / bareResult.requestsPerSecond * 100).toFixed(1);
        console.log(
          `  ${name}, create + key, ${connections} conn: ${describe(result)}, ${share}% of bare`,
        );
      }
      await server.stop();
    }
  }
  await Deno.remove(dir, { recursive: true });
}

if (Deno.args[0] === "serve") serveReference(Deno.args[1], Number(Deno.args[2]));
else await compare();
