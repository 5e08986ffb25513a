import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { type ExportFile, exportPayments, exportRefunds } from "../exports/mod.ts";
import { PaymentExportQuery, RefundExportQuery } from "../exports/schemas.ts";
import {
  listReconciliations,
  reconcile,
  statementDialect,
  toReconciliation,
} from "../reconciliations/mod.ts";
import type { Reconciliation } from "../reconciliations/schemas.ts";
import { type FieldReader, parseRequest } from "./forms.ts";

/** What Payments -> Export exports. */
export type ExportKind = "payments" | "refunds";

/** How many reconciliations the panel shows, newest first. */
const SHOWN_RECONCILIATIONS = 20;

function queryOf(field: FieldReader): Record<string, string> {
  return Object.fromEntries(
    ["from", "to", "status", "format"].flatMap((name) => {
      const value = field(name).trim();
      return value === "" ? [] : [[name, value]];
    }),
  );
}

/** The export a panel form asks for, checked by the API's own query schema. */
export function exportFromForm(ctx: OrgContext, kind: ExportKind, field: FieldReader): ExportFile {
  return kind === "payments"
    ? exportPayments(ctx, parseRequest(PaymentExportQuery, queryOf(field)))
    : exportRefunds(ctx, parseRequest(RefundExportQuery, queryOf(field)));
}

/** The latest reconciliations, for the page beside the payments. */
export async function loadReconciliations(ctx: OrgContext): Promise<Reconciliation[]> {
  const page = await listReconciliations(ctx, { limit: SHOWN_RECONCILIATIONS });
  return page.data.map(toReconciliation);
}

/** Reconciles an uploaded statement; 400 when no file was chosen. */
export async function reconcileUpload(
  ctx: OrgContext,
  file: File | undefined,
): Promise<Reconciliation> {
  if (file === undefined) {
    throw new ApiError(
      "parameter_missing",
      `Choose ${statementDialect(ctx).source}'s statement (a .csv file).`,
      { param: "statement" },
    );
  }
  return await reconcile(ctx, file.stream());
}
