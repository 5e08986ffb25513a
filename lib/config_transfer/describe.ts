import { formatMoney } from "../money.ts";
import type { ImportPlan, ImportResult, PlanItem } from "./import.ts";

/** One line a person reads about one plan item. */
export function describeItem(item: PlanItem): string {
  switch (item.kind) {
    case "offer": {
      const offer = item.source;
      const price = formatMoney(offer.amount, offer.currency) +
        (offer.recurring
          ? ` every ${offer.recurring.intervalCount} ${offer.recurring.interval}`
          : "");
      return item.action === "create"
        ? `create offer '${offer.name}' (${price}${
          offer.active ? "" : ", inactive"
        }) for ${offer.qrId}`
        : `change offer '${offer.name}' ${item.targetId} (from ${offer.qrId}): ${
          item.fields.join(", ")
        }`;
    }
    case "endpoint":
      return item.action === "create"
        ? `create webhook endpoint ${item.source.url} (${item.source.events.join(", ")}${
          item.source.enabled ? "" : ", disabled"
        }) with a new signing secret`
        : `change webhook endpoint ${item.targetId} (from ${item.source.id}): ${
          item.fields.join(", ")
        }`;
    case "checkout":
      return `set checkout allowed origins to ${
        item.to.length > 0 ? item.to.join(", ") : "none"
      } (was ${item.from.length > 0 ? item.from.join(", ") : "none"})`;
  }
}

/** The plan as lines: where the file came from, then what will be created or changed. */
export function describePlan(
  plan: ImportPlan,
  target: { org: string; environment: string },
): string {
  const lines = [
    `File: '${plan.file.organisation}' in ${plan.file.environment}, exported ${plan.file.exportedAt}.`,
    `Import into '${target.org}' in ${target.environment}:`,
    ...plan.items.map((item) => `  ${describeItem(item)}`),
  ];
  lines.push(
    plan.items.length === 0
      ? `  nothing to create or change (${plan.unchanged} already match).`
      : `  (${plan.unchanged} already match.)`,
  );
  return lines.join("\n");
}

/** What was done, the offers' new ids, and each new endpoint's secret (shown this once). */
export function describeResult(result: ImportResult): string {
  const lines = [
    result.plan.items.length === 0
      ? "Nothing changed: the configuration was already imported."
      : `Imported: ${result.plan.items.length} change${result.plan.items.length === 1 ? "" : "s"}.`,
  ];
  if (result.offers.length > 0) {
    lines.push("Offers (qrId there -> qrId here):");
    for (const offer of result.offers) {
      lines.push(`  ${offer.sourceId} -> ${offer.targetId}  ${offer.name}`);
    }
  }
  for (const endpoint of result.createdEndpoints) {
    lines.push(
      `New webhook endpoint ${endpoint.id} ${endpoint.url}: signing secret ${endpoint.secret} (shown once; put it in your receiver now).`,
    );
  }
  return lines.join("\n");
}
