import { type Translator, translator } from "../i18n/mod.ts";
import { formatMoney } from "../money.ts";
import type { ImportPlan, ImportResult, PlanItem } from "./import.ts";

const ENGLISH = translator("en");

/** Money as the reader's language writes it: the panel's `PLN 12.50` in English. */
function money(tr: Translator, amount: number, currency: string): string {
  return tr.language === "en" ? formatMoney(amount, currency) : tr.money(amount, currency);
}

/** One line a person reads about one plan item, in `tr`'s language (the CLI's is English). */
export function describeItem(item: PlanItem, tr: Translator = ENGLISH): string {
  const { t } = tr;
  switch (item.kind) {
    case "offer": {
      const offer = item.source;
      if (item.action === "change") {
        return t("panel.config.item.offerChange", {
          name: offer.name,
          targetId: item.targetId,
          qrId: offer.qrId,
          fields: item.fields.join(", "),
        });
      }
      const amount = money(tr, offer.amount, offer.currency);
      return t("panel.config.item.offerCreate", {
        name: offer.name,
        price: offer.recurring
          ? t("panel.config.item.recurringPrice", {
            amount,
            count: offer.recurring.intervalCount,
            interval: offer.recurring.interval,
          })
          : amount,
        inactive: offer.active ? "no" : "yes",
        qrId: offer.qrId,
      });
    }
    case "endpoint":
      return item.action === "create"
        ? t("panel.config.item.endpointCreate", {
          url: item.source.url,
          events: item.source.events.join(", "),
          disabled: item.source.enabled ? "no" : "yes",
        })
        : t("panel.config.item.endpointChange", {
          targetId: item.targetId,
          sourceId: item.source.id,
          fields: item.fields.join(", "),
        });
    case "checkout": {
      const list = (origins: string[]) =>
        origins.length > 0 ? origins.join(", ") : t("panel.config.item.none");
      return t("panel.config.item.checkout", { to: list(item.to), from: list(item.from) });
    }
  }
}

/**
 * The plan as lines: where the file came from, then what will be created or changed, each item
 * this environment refuses marked with why.
 */
export function describePlan(
  plan: ImportPlan,
  target: { org: string; environment: string },
): string {
  const lines = [
    `File: '${plan.file.organisation}' in ${plan.file.environment}, exported ${plan.file.exportedAt}.`,
    `Import into '${target.org}' in ${target.environment}:`,
    ...plan.items.map((item) =>
      item.refusal === null
        ? `  ${describeItem(item)}`
        : `  REFUSED: ${
          describeItem(item)
        }\n    (${target.environment} refuses it: ${item.refusal})`
    ),
  ];
  lines.push(
    plan.items.length === 0
      ? `  nothing to create or change (${plan.unchanged} already match).`
      : `  (${plan.unchanged} already match.)`,
  );
  return lines.join("\n");
}

/** What was done, what was left out, the offers' new ids, and each new endpoint's secret. */
export function describeResult(result: ImportResult): string {
  const lines = [
    result.applied.length === 0
      ? "Nothing changed: the configuration was already imported."
      : `Imported: ${result.applied.length} change${result.applied.length === 1 ? "" : "s"}.`,
  ];
  for (const item of result.leftOut) lines.push(`Left out: ${describeItem(item)}`);
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
