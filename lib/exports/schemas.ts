import { z } from "zod";
import { PAYMENT_STATUSES } from "../payments/status.ts";
import { REFUND_STATUSES } from "../refunds/status.ts";

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Tells whether `value` is a calendar day `YYYY-MM-DD` that exists. */
export function isDay(value: string): boolean {
  return DAY.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

const instant = z.iso.datetime({ offset: true });

/** A bound of an export's range: a whole day in the organisation's time zone, or an instant. */
const Bound = (description: string) =>
  z.string().max(40).refine(
    (value) => isDay(value) || instant.safeParse(value).success,
    "must be a day such as 2026-11-01 or an ISO 8601 time such as 2026-11-01T00:00:00.000Z",
  ).optional().meta({ description, example: "2026-11-01" });

const Format = z.enum(["csv", "xlsx"]).default("csv").meta({
  description: "`csv`: RFC 4180, UTF-8 with a BOM. `xlsx`: a workbook with typed cells.",
});

const range = {
  from: Bound(
    "The first day (`YYYY-MM-DD`, in the organisation's time zone, Europe/Warsaw) or the " +
      "first instant included. Without it, from the first record.",
  ),
  to: Bound(
    "The last day included (`YYYY-MM-DD`), or the instant the export stops before. Without " +
      "it, to the last record.",
  ),
};

export const PaymentExportQuery = z.strictObject({
  ...range,
  status: z.enum(PAYMENT_STATUSES).optional().meta({ description: "Only payments in it." }),
  format: Format,
});
export type PaymentExportQuery = z.infer<typeof PaymentExportQuery>;

export const RefundExportQuery = z.strictObject({
  ...range,
  status: z.enum(REFUND_STATUSES).optional().meta({ description: "Only refunds in it." }),
  format: Format,
});
export type RefundExportQuery = z.infer<typeof RefundExportQuery>;

/** What an export file holds, as the OpenAPI document describes it. */
export const ExportFile = z.string().meta({
  description: "The file: a header row, then one row per record, oldest first.",
});
