import {
  type ExportCursor,
  type ExportFilter,
  paymentExportPage,
  refundExportPage,
} from "../../db/exports.ts";
import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { nextDay, ORGANISATION_TIME_ZONE, startOfDay } from "../time_zone.ts";
import { type Column, PAYMENT_COLUMNS, REFUND_COLUMNS } from "./columns.ts";
import { csvWriter } from "./csv.ts";
import type { PaymentExportQuery, RefundExportQuery } from "./schemas.ts";
import { isDay } from "./schemas.ts";
import type { SheetWriter, Sink } from "./sheet.ts";
import { xlsxWriter } from "./xlsx.ts";

/** Rows read from the database per page: a page is a few hundred kilobytes at most. */
export const EXPORT_PAGE_SIZE = 200;

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

/** An export ready to send: its headers' values and its body, made as it is read. */
export interface ExportFile {
  contentType: string;
  filename: string;
  body: ReadableStream<Uint8Array>;
}

type Format = keyof typeof CONTENT_TYPES;
type Range = Pick<PaymentExportQuery, "from" | "to">;

/** The instants `[from, to)` a query's range covers; 400 on `to` if it ends before it starts. */
function resolveRange(query: Range): { from: number; to: number } {
  const zone = ORGANISATION_TIME_ZONE;
  const from = query.from === undefined
    ? 0
    : isDay(query.from)
    ? startOfDay(query.from, zone)
    : Date.parse(query.from);
  const to = query.to === undefined
    ? Number.MAX_SAFE_INTEGER
    : isDay(query.to)
    ? startOfDay(nextDay(query.to), zone)
    : Date.parse(query.to);
  if (to <= from) {
    throw new ApiError("parameter_invalid", "'to' must come after 'from'.", { param: "to" });
  }
  return { from, to };
}

async function writerFor<R extends { currency: string }>(
  format: Format,
  sheetName: string,
  columns: Column<R>[],
  sink: Sink,
): Promise<SheetWriter<R>> {
  return format === "csv"
    ? await csvWriter(columns, sink)
    : await xlsxWriter(sheetName, columns, ORGANISATION_TIME_ZONE, sink);
}

/**
 * The file's bytes, read from the database a page at a time as the client takes them: a pull
 * reads the next page only when the bytes of the last one were taken, so an export of a year
 * holds one page in memory, not the year.
 */
function exportStream<R extends { id: number; created_at: number; currency: string }>(
  readPage: (cursor: ExportCursor | null, limit: number) => Promise<R[]>,
  makeWriter: (sink: Sink) => Promise<SheetWriter<R>>,
): ReadableStream<Uint8Array> {
  let cursor: ExportCursor | null = null;
  let writer: SheetWriter<R>;
  // What the writer made since the last pull, sent as one chunk: a writer makes a chunk per row.
  let pending: Uint8Array[] = [];
  const flush = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (pending.length === 0) return;
    const chunk = new Uint8Array(pending.reduce((size, part) => size + part.byteLength, 0));
    let offset = 0;
    for (const part of pending) {
      chunk.set(part, offset);
      offset += part.byteLength;
    }
    pending = [];
    controller.enqueue(chunk);
  };
  return new ReadableStream<Uint8Array>({
    async start() {
      writer = await makeWriter((chunk) => pending.push(chunk));
    },
    // NOTE: a pull must enqueue or close: a stream whose pull enqueued nothing is not pulled
    // again, and a writer may hold a page's bytes back (a workbook's compressor does).
    async pull(controller) {
      for (;;) {
        const rows = await readPage(cursor, EXPORT_PAGE_SIZE);
        if (rows.length > 0) {
          await writer.write(rows);
          const last = rows[rows.length - 1];
          cursor = { createdAt: last.created_at, id: last.id };
        }
        if (rows.length < EXPORT_PAGE_SIZE) {
          await writer.end();
          flush(controller);
          controller.close();
          return;
        }
        if (pending.length > 0) return flush(controller);
      }
    },
  });
}

function filenameOf(ctx: OrgContext, what: string, format: Format): string {
  const day = new Date(ctx.now()).toISOString().slice(0, 10);
  return `paystead-${what}-${ctx.services.environment}-${day}.${format}`;
}

/** The organisation's payments created in the query's range, as CSV or a workbook. */
export function exportPayments(ctx: OrgContext, query: PaymentExportQuery): ExportFile {
  const filter: ExportFilter = { orgId: ctx.orgId, ...resolveRange(query), status: query.status };
  return {
    contentType: CONTENT_TYPES[query.format],
    filename: filenameOf(ctx, "payments", query.format),
    body: exportStream(
      (cursor, limit) => paymentExportPage(ctx.db, filter, cursor, limit),
      (sink) => writerFor(query.format, "Payments", PAYMENT_COLUMNS, sink),
    ),
  };
}

/** The organisation's refunds created in the query's range, as CSV or a workbook. */
export function exportRefunds(ctx: OrgContext, query: RefundExportQuery): ExportFile {
  const filter: ExportFilter = { orgId: ctx.orgId, ...resolveRange(query), status: query.status };
  return {
    contentType: CONTENT_TYPES[query.format],
    filename: filenameOf(ctx, "refunds", query.format),
    body: exportStream(
      (cursor, limit) => refundExportPage(ctx.db, filter, cursor, limit),
      (sink) => writerFor(query.format, "Refunds", REFUND_COLUMNS, sink),
    ),
  };
}
