import { benchApi, printRows } from "./api.ts";
import { benchBackup } from "./backup.ts";
import { benchExports } from "./exports.ts";
import { benchSoak } from "./soak.ts";
import { benchStatements } from "./statements.ts";
import { formatEmailsBench, runEmailsBench } from "./emails.ts";
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
console.log("\nCustomer e-mails (one sandbox process, local SMTP server)");
console.log(formatEmailsBench(await runEmailsBench()));
rows.push(await benchSoak());
rows.push(...await benchBackup());
console.log("\nExports of 100,000 payments (issue 32), streamed from a production process");
const exportRows = await benchExports();
printRows(exportRows);
rows.push(...exportRows);
console.log("\nReconciling a statement of 10 MiB (issue 43), in a sandbox process");
const statementRows = await benchStatements();
printRows(statementRows);
rows.push(...statementRows);
console.log("\nThe performance targets (issue 11), all figures of this run:");
printRows(rows);
