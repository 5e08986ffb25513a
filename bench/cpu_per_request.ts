/**
 * CPU time per create of a production Paystead beside the framework-free reference server, and
 * per GET and `/healthz` beside a bare `Deno.serve`: each server's own CPU seconds (from
 * /proc/<pid>/stat) over the requests wrk got answered. Throughput on a pinned core follows it,
 * and unlike throughput it barely moves when other work shares the machine, so it shows what a
 * change bought while the machine is busy. `deno run -A bench/cpu_per_request.ts`
 * (BENCH_SECONDS, BENCH_ROUNDS).
 */
import {
  type ChildServer,
  productionApiKey,
  startBareServer,
  startPaystead,
} from "../tests/support/processes.ts";
import { type Creates, offerCreates } from "./api.ts";
import { cpuSeconds } from "./cpu.ts";
import { startReference } from "./reference_server.ts";
import { runWrk } from "./wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 4);
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);

/** Microseconds of the server's CPU per answered request of one wrk run. */
async function cpuPerRequest(
  server: ChildServer,
  options: Omit<Parameters<typeof runWrk>[0], "seconds" | "connections">,
): Promise<number> {
  const before = await cpuSeconds(server.process.pid);
  const result = await runWrk({ ...options, seconds: SECONDS, connections: 32 });
  const used = await cpuSeconds(server.process.pid) - before;
  const answered = result.requestsPerSecond * SECONDS;
  return used / answered * 1e6;
}

const dataDir = await Deno.makeTempDir({ prefix: "paystead-cpu-" });
const referenceDir = await Deno.makeTempDir({ prefix: "paystead-cpu-reference-" });
const key = await productionApiKey(dataDir);
const referenceKey = await productionApiKey(referenceDir);
const maker = await startPaystead(referenceDir, { PAYSTEAD_ENV: "production" });
const referenceCreates = await offerCreates(referenceKey, maker.url).finally(() => maker.stop());
const paystead = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
const reference = await startReference(referenceDir);
const bare = await startBareServer();
try {
  const creates = await offerCreates(key, paystead.url);
  const payment = await (await fetch(`${paystead.url}/api/v1/payments`, {
    method: "POST",
    ...creates,
  })).json();
  const create = (server: ChildServer, { headers, body }: Creates) =>
    cpuPerRequest(server, {
      url: `${server.url}/api/v1/payments`,
      method: "POST",
      body,
      headers,
      uniqueIdempotencyKey: true,
    });
  for (let round = 1; round <= ROUNDS; round++) {
    const paysteadCreate = await create(paystead, creates);
    const referenceCreate = await create(reference, referenceCreates);
    const bareGet = await cpuPerRequest(bare, { url: bare.url });
    const get = await cpuPerRequest(paystead, {
      url: `${paystead.url}/api/v1/payments/${payment.paymentId}`,
      headers: creates.headers,
    });
    const health = await cpuPerRequest(paystead, { url: `${paystead.url}/healthz` });
    console.log(
      `round ${round}: create ${paysteadCreate.toFixed(0)} us against the reference's ` +
        `${referenceCreate.toFixed(0)} us (${(referenceCreate / paysteadCreate).toFixed(2)}x ` +
        `its rate); GET ${get.toFixed(0)} us, /healthz ${health.toFixed(0)} us, bare ` +
        `${bareGet.toFixed(0)} us (GET ${(bareGet / get * 100).toFixed(1)}%, /healthz ` +
        `${(bareGet / health * 100).toFixed(1)}% of bare)`,
    );
  }
} finally {
  await paystead.stop();
  await reference.stop();
  await bare.stop();
  await Deno.remove(dataDir, { recursive: true });
  await Deno.remove(referenceDir, { recursive: true });
}
