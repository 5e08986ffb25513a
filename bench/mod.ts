import { benchApi, printRows } from "./api.ts";
import { benchExports } from "./exports.ts";
import { benchSoak } from "./soak.ts";
import { formatWebhooksBench, runWebhooksBench } from "./webhooks.ts";

// Every figure is reported beside a baseline measured in the same run: the machines are shared.
console.log(
  `deno ${Deno.version.deno} on ${Deno.build.target}; BENCH_SECONDS=${
    Deno.env.get("BENCH_SECONDS") ?? 5
  }, SOAK_SECONDS=${Deno.env.get("SOAK_SECONDS") ?? 15}`,
);
const rows = await benchApi();
printRows(rows);
console.log("\nWebhook delivery (one sandbox process, local receiver)");
console.log(formatWebhooksBench(await runWebhooksBench()));
rows.push(await benchSoak());
console.log("\nExports of 100,000 payments (issue 32), streamed from a production process");
const exportRows = await benchExports();
printRows(exportRows);
rows.push(...exportRows);
console.log("\nThe performance targets (issue 11), all figures of this run:");
printRows(rows);
