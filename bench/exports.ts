/**
 * Exports of 100,000 payments from a production process started with the start task's flags:
 * rows per second for CSV and for xlsx, and how far the export grows the process's resident
 * memory (sampled every 50 ms while the response is read, against the figure just before it),
 * each format exported twice: the first export of a format also loads its writer's code.
 * `deno task bench`, or alone: `deno run -A bench/exports.ts` (EXPORT_ROWS to change the count).
 */
import { openStore } from "../db/client.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { productionApiKey, startPaystead } from "../tests/support/processes.ts";
import type { BenchRow } from "./api.ts";

const ROWS = Number(Deno.env.get("EXPORT_ROWS") ?? 100_000);
const TARGET_MIB = 30;

/** Resident memory of a process in MiB (`ps`, as reading /proc takes --allow-all). */
export async function rssMiB(pid: number): Promise<number> {
  const ps = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] }).output();
  return Number(new TextDecoder().decode(ps.stdout).trim()) / 1024;
}

/** Writes `ROWS` succeeded payments of the offer, each with its attempt, as PayU's would be. */
async function seed(dataDir: string, qrId: string): Promise<void> {
  const store = await openStore<EnvironmentSchema>(`file:${dataDir}/production.db`);
  try {
    const offer = await store.db.selectFrom("offers").select(["id", "org_id"])
      .where("public_id", "=", qrId).executeTakeFirstOrThrow();
    const start = Date.UTC(2026, 0, 1);
    for (let first = 0; first < ROWS; first += 500) {
      const count = Math.min(500, ROWS - first);
      await store.write(async (trx) => {
        const payments = await trx.insertInto("payments").values(
          Array.from({ length: count }, (_, index) => {
            const at = start + (first + index) * 60_000;
            return {
              public_id: newId("payment"),
              org_id: offer.org_id,
              offer_id: offer.id,
              status: "SUCCEEDED",
              amount: 1000 + (first + index) % 5000,
              currency: "PLN",
              quantity: 1,
              amount_refunded: 0,
              customer_email: `customer${first + index}@example.pl`,
              customer_name: "Jan Kowalski",
              success_url: null,
              cancel_url: null,
              failure_code: null,
              metadata: "{}",
              expires_at: at + 1_800_000,
              processing_deadline_at: null,
              created_at: at,
              updated_at: at + 5_000,
              succeeded_at: at + 5_000,
            };
          }),
        ).returning(["id", "created_at"]).execute();
        await trx.insertInto("payment_attempts").values(payments.map((payment) => ({
          public_id: newId("paymentAttempt"),
          org_id: offer.org_id,
          payment_id: payment.id,
          provider: "payu",
          provider_ref: `PAYU${payment.id}`,
          status: "SUCCEEDED",
          failure_code: null,
          deadline_at: null,
          check_at: payment.created_at,
          created_at: payment.created_at,
          updated_at: payment.created_at + 5_000,
          finished_at: payment.created_at + 5_000,
        }))).execute();
      });
    }
  } finally {
    await store.close();
  }
}

/** Reads one export to its end; returns the rows per second and the largest RSS growth. */
async function measure(
  url: string,
  key: string,
  pid: number,
): Promise<{ rowsPerSecond: number; growthMiB: number; bytes: number }> {
  const idle = await rssMiB(pid);
  let peak = idle;
  let reading = true;
  const sampler = (async () => {
    while (reading) {
      peak = Math.max(peak, await rssMiB(pid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body!) bytes += chunk.byteLength;
  const seconds = (performance.now() - started) / 1000;
  reading = false;
  await sampler;
  return { rowsPerSecond: ROWS / seconds, growthMiB: peak - idle, bytes };
}

/** The export rows of the bench table, one per format. */
export async function benchExports(): Promise<BenchRow[]> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-exports-" });
  try {
    const key = await productionApiKey(dataDir);
    let server = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
    const offer = await (await fetch(`${server.url}/api/v1/qr`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Export bench", amount: 1000, currency: "PLN" }),
    })).json();
    await server.stop("SIGTERM");
    await seed(dataDir, offer.qrId);
    server = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
    try {
      const rows: BenchRow[] = [];
      for (const format of ["csv", "xlsx"]) {
        const url = `${server.url}/api/v1/exports/payments?format=${format}`;
        // The first export of a format also loads its writer's code (exceljs, loaded on first
        // use so an idle process does not hold it): the bound is the export's, the second one.
        const first = await measure(url, key, server.process.pid);
        const again = await measure(url, key, server.process.pid);
        const growth = again.growthMiB;
        rows.push({
          name: `export ${ROWS} payments, ${format}`,
          figure: `${first.rowsPerSecond.toFixed(0)}, ${
            again.rowsPerSecond.toFixed(0)
          } rows/s; RSS +${first.growthMiB.toFixed(1)}, +${again.growthMiB.toFixed(1)} MiB; ${
            (first.bytes / 1024 / 1024).toFixed(1)
          } MiB file`,
          bare: "first export (its writer loaded), then again",
          target: `RSS growth again <= ${TARGET_MIB} MiB`,
          pass: growth <= TARGET_MIB,
        });
      }
      return rows;
    } finally {
      await server.stop("SIGTERM");
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) {
  const { printRows } = await import("./api.ts");
  printRows(await benchExports());
}
