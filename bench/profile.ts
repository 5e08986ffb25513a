/**
 * Profiles one production process under wrk with V8's sampling profiler and prints where the
 * CPU went, by package and by function: `deno run -A bench/profile.ts [create|get|healthz]`.
 */
import {
  freePort,
  PAYU_TEST_ENV,
  productionApiKey,
  shippedArgs,
  waitForUrl,
} from "../tests/support/processes.ts";
import { runWrk } from "./wrk.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PACKAGES = [
  "hono",
  "@hono",
  "zod",
  "kysely",
  "libsql",
  "@libsql",
  "preact",
  "prom-client",
  "nanoid",
  "standardwebhooks",
];

function packageOf(url: string): string {
  if (url === "") return "(native/runtime)";
  const npm = /registry\.npmjs\.org\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (npm) return PACKAGES.includes(npm[1]) || npm[1].startsWith("@") ? npm[1] : `npm:${npm[1]}`;
  const own = /\/(routes|lib|db|components)\/(.*)$/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  if (url.startsWith("ext:") || url.startsWith("node:")) return url.split("/")[0] + "…";
  return url;
}

/** Self time per key, in percent of all samples that were not idle. */
function summarise(
  profile: CpuProfile,
  key: (node: ProfileNode, parents: Map<number, ProfileNode>) => string,
  top: number,
): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node);
  }
  const totals = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    const k = key(node, parents);
    totals.set(k, (totals.get(k) ?? 0) + dt);
  });
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([name, t]) => `${(t / busy * 100).toFixed(1).padStart(5)}%  ${name}`).join("\n");
}

/** The request's stages, as docs/performance.md reports them. */
function stageOf(node: ProfileNode, parents: Map<number, ProfileNode>): string {
  const { url, functionName } = node.callFrame;
  if (functionName === "(garbage collector)") return "garbage collection";
  // node:sqlite's calls are native frames called from the connection.
  if (url === "" && /db\/local_sqlite\.ts$/.test(parents.get(node.id)?.callFrame.url ?? "")) {
    return "SQLite (native calls)";
  }
  if (functionName === "op_fs_file_sync_data_async") return "fsync (dispatch; runs off-thread)";
  const where = packageOf(url);
  if (where === "libsql" || where === "@libsql/client") return "SQLite (native calls)";
  if (where === "kysely" || where === "db/prepared.ts") return "SQL building (Kysely)";
  if (where === "zod" || where.startsWith("@hono/zod")) return "validation (zod)";
  if (where === "hono") return "routing and middleware (hono)";
  if (where === "prom-client") return "metrics";
  if (/request_metrics/.test(where)) return "metrics";
  if (/lib\/log\.ts|request_log/.test(where)) return "logging";
  if (/idempotency/.test(where)) return "idempotency (own code)";
  if (/api_keys|api_auth/.test(where)) return "authentication (own code)";
  if (/^db\//.test(where)) return "database layer (own code)";
  if (/^(routes|lib|components)\//.test(where)) return "other own code";
  if (/^ext:deno_(http|fetch|web|webidl|net)|^ext:core/.test(where)) {
    return "HTTP and runtime (Deno)";
  }
  if (functionName === "(program)") return "V8 (program)";
  return `other: ${where}`;
}

const route = Deno.args[0] ?? "create";
const seconds = Number(Deno.env.get("PROFILE_SECONDS") ?? 10);
const dataDir = await Deno.makeTempDir({ prefix: "paystead-profile-" });
const profileDir = `${dataDir}/profile`;
const key = await productionApiKey(dataDir);
const port = freePort();
const child = new Deno.Command(Deno.execPath(), {
  // The start task's own flags, with the profiler's added.
  args: [
    "run",
    "--cpu-prof",
    `--cpu-prof-dir=${profileDir}`,
    ...shippedArgs("start", ["--port", String(port), "--data-dir", dataDir]).slice(1),
  ],
  env: {
    // Production refuses to start without its provider's settings.
    ...PAYU_TEST_ENV,
    PAYSTEAD_ENV: "production",
    LOG_LEVEL: "info",
    LISTEN_HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_PER_SECOND: "1000000",
  },
  stdout: "null",
  stderr: "null",
}).spawn();
const url = `http://127.0.0.1:${port}`;
try {
  await waitForUrl(`${url}/readyz`);
  const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const offer = await (await fetch(`${url}/api/v1/qr`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "Profile", amount: 1000, currency: "PLN" }),
  })).json();
  const payment = await (await fetch(`${url}/api/v1/payments`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ qrId: offer.qrId }),
  })).json();
  const target = route === "healthz"
    ? { url: `${url}/healthz` }
    : route === "get"
    ? { url: `${url}/api/v1/payments/${payment.paymentId}`, headers: auth }
    : {
      url: `${url}/api/v1/payments`,
      method: "POST",
      body: JSON.stringify({ qrId: offer.qrId }),
      headers: auth,
      uniqueIdempotencyKey: true,
    };
  const result = await runWrk({ ...target, connections: 32, seconds });
  console.log(`${route}: ${result.requestsPerSecond.toFixed(0)} req/s under the profiler`);
} finally {
  child.kill("SIGTERM");
  await child.status;
}
for await (const entry of Deno.readDir(profileDir)) {
  const profile: CpuProfile = JSON.parse(await Deno.readTextFile(`${profileDir}/${entry.name}`));
  console.log("\nSelf time by stage of the request (busy samples only):");
  console.log(summarise(profile, stageOf, 20));
  console.log("\nSelf time by package or module (busy samples only):");
  console.log(summarise(profile, (node) => packageOf(node.callFrame.url), 25));
  console.log("\nSelf time by function:");
  console.log(summarise(
    profile,
    (node) =>
      `${node.callFrame.functionName || "(anonymous)"} ${
        packageOf(node.callFrame.url)
      }:${node.callFrame.lineNumber}`,
    40,
  ));
  console.log("\nTime by the nearest function of Paystead's own on the stack:");
  console.log(summarise(
    profile,
    (node, parents) => {
      for (let at: ProfileNode | undefined = node; at; at = parents.get(at.id)) {
        const own = packageOf(at.callFrame.url);
        if (/^(routes|lib|db|components)\//.test(own)) {
          return `${at.callFrame.functionName || "(anonymous)"} ${own}:${at.callFrame.lineNumber}`;
        }
      }
      return `(outside: ${packageOf(node.callFrame.url)})`;
    },
    40,
  ));
}
await Deno.remove(dataDir, { recursive: true });
