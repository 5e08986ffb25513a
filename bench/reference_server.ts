/**
 * Issue 11's yardstick: a framework-free server doing a create's durable work (Deno.serve,
 * node:sqlite, key hash lookup, JSON parse and check, offer read, then the payment, event and
 * idempotency rows Paystead writes, with the same statements on the same schema and ids made the
 * same way; one transaction and one WAL fdatasync per group of writes, the writes that arrive
 * during a flush making the next group). What it reaches on a machine is what this stack can reach
 * there.
 *
 * `deno run -A bench/reference_server.ts DIR PORT` serves it on the production database in DIR
 * (made by Paystead, so the schema and its indexes are the same).
 */
import { createHash } from "node:crypto";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { paymentCreateStatements } from "../db/payment_create.ts";
import { newId } from "../lib/ids.ts";
import { pendingPaymentRow } from "../lib/payments/mod.ts";
import type { SqlStatement } from "../db/libsql_dialect.ts";
import { type ChildServer, freePort, startChild } from "../tests/support/processes.ts";

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
    "SELECT id, org_id, amount, currency, updated_at FROM offers WHERE public_id = ? AND org_id = ? AND active = 1",
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
      updated_at: number;
    } | undefined;
    if (!offer) return Response.json({ error: "offer" }, { status: 404 });
    const now = Date.now();
    const paymentId = newId("payment");
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
        invoice: null,
        expiresAt: now + 3_600_000,
        now,
      }),
      offer,
      event: {
        public_id: newId("event"),
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

/** Starts the reference server on the production database in `dir`. */
export async function startReference(dir: string): Promise<ChildServer> {
  const port = freePort();
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, dir, String(port)],
    stdout: "piped",
    stderr: "piped",
  });
  // Any answer will do: without a key it is a 401 that writes nothing.
  return await startChild(command, port, "/");
}

if (import.meta.main) serveReference(Deno.args[0], Number(Deno.args[1]));
