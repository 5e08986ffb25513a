import { openStore } from "../db/client.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { productionApiKey, startBareServer, startPaystead } from "../tests/processes.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);

function row(name: string, result: WrkResult, baseline: WrkResult): string {
  const ratio = (result.requestsPerSecond / baseline.requestsPerSecond * 100).toFixed(1);
  return `${name.padEnd(34)} ${result.requestsPerSecond.toFixed(0).padStart(8)} req/s  ` +
    `p50 ${result.p50Ms.toFixed(2).padStart(6)} ms  p99 ${
      result.p99Ms.toFixed(2).padStart(6)
    } ms  ` +
    `${ratio.padStart(5)}% of bare`;
}

/**
 * The production API under wrk: POST /api/v1/payments and GET /api/v1/payments/{id} at 1 and 32
 * connections, each beside a bare Deno.serve hello-world measured in the same run. Checks
 * afterwards that every 201 wrk counted is a payment in the database.
 */
export async function benchApi(): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-bench-" });
  const key = await productionApiKey(dataDir);
  const bare = await startBareServer();
  const paystead = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
  try {
    const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const offer = await (await fetch(`${paystead.url}/api/v1/qr`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Bench", amount: 1000, currency: "PLN" }),
    })).json();
    const payment = await (await fetch(`${paystead.url}/api/v1/payments`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ qrId: offer.qrId }),
    })).json();

    console.log(`\nMerchant API, production process (wrk, one thread, ${SECONDS} s per row)`);
    let created = 0;
    for (const connections of [1, 32]) {
      const baseline = await runWrk({ url: bare.url, connections, seconds: SECONDS });
      console.log(row(`bare Deno.serve, ${connections} conn`, baseline, baseline));
      const create = await runWrk({
        url: `${paystead.url}/api/v1/payments`,
        connections,
        seconds: SECONDS,
        method: "POST",
        body: JSON.stringify({ qrId: offer.qrId }),
        headers: auth,
      });
      created += create.statuses["201"] ?? 0;
      console.log(row(`POST /api/v1/payments, ${connections} conn`, create, baseline));
      if (create.nonSuccess > 0) {
        console.log(`  non-2xx responses: ${JSON.stringify(create.statuses)}`);
      }
      const get = await runWrk({
        url: `${paystead.url}/api/v1/payments/${payment.paymentId}`,
        connections,
        seconds: SECONDS,
        headers: auth,
      });
      console.log(row(`GET /api/v1/payments/{id}, ${connections} conn`, get, baseline));
    }
    const listed = await (await fetch(`${paystead.url}/api/v1/payments?limit=1`, { headers: auth }))
      .json();
    await paystead.stop();
    const store = await openStore<EnvironmentSchema>(
      `file:${dataDir}/production.db`,
    );
    const row_ = await store.db.selectFrom("payments").select((eb) =>
      eb.fn.countAll<number>().as("n")
    )
      .executeTakeFirstOrThrow();
    await store.close();
    const inDatabase = Number(row_.n) - 1;
    console.log(
      `201s counted by wrk: ${created}; payments committed: ${inDatabase} ` +
        `(${
          inDatabase >= created
            ? "every acknowledged payment is in the database"
            : "MISSING PAYMENTS"
        }; ` +
        `latest ${listed.data[0]?.paymentId})`,
    );
  } finally {
    await paystead.stop();
    await bare.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) await benchApi();
