import type ExcelJS from "exceljs";
import { currencyDigits } from "../money.ts";
import { wallClockMs } from "../time_zone.ts";
import type { Column } from "./columns.ts";
import type { SheetWriter, Sink } from "./sheet.ts";

const TIME_FORMAT = "yyyy-mm-dd hh:mm:ss";
const TWO_DECIMALS = "0.00";

/** How much of the sheet's XML may wait for the compressor before the next page is read. */
const MAX_BACKLOG_BYTES = 256 * 1024;

/** What exceljs 4.4.0's worksheet writer keeps of its XML stream (not in its typings). */
interface SheetStream {
  buffers: { length: number }[];
  /** readable-stream 2's PassThrough, which archiver feeds its compressor through. */
  pipes: { _writableState: { length: number }; _readableState: { length: number } }[];
}

/**
 * The sheet's XML not yet compressed: what its stream holds and what waits in the stream that
 * feeds the zip's compressor. NOTE: exceljs writes to the compressor without heeding its backpressure, and the
 * compressor runs on the event loop's callbacks, so without this wait a fast reader of the
 * database fills memory with a year of uncompressed XML.
 */
function backlog(sheet: ExcelJS.Worksheet): number {
  const stream = (sheet as unknown as { stream: SheetStream }).stream;
  return stream.buffers.reduce((sum, buffer) => sum + buffer.length, 0) +
    stream.pipes.reduce(
      (sum, pipe) => sum + pipe._writableState.length + pipe._readableState.length,
      0,
    );
}

function amountFormat(currency: string): string {
  const digits = currencyDigits(currency);
  return digits === 0 ? "0" : `0.${"0".repeat(digits)}`;
}

/**
 * Writes an export as a workbook with typed cells, through exceljs's streaming writer: amounts as
 * numbers in major units with the currency's decimals, times as dates showing the wall clock of
 * `timeZone` (a spreadsheet's dates have no time zone), text as text, never as a formula.
 * exceljs and Node's streams are imported at the first workbook (string literals, which `deno
 * compile` embeds): exceljs is about 30 MiB resident, which a process that never exports a
 * workbook should not hold.
 */
export async function xlsxWriter<R extends { currency: string }>(
  sheetName: string,
  columns: Column<R>[],
  timeZone: string,
  sink: Sink,
): Promise<SheetWriter<R>> {
  const [{ default: ExcelJS }, { PassThrough }] = await Promise.all([
    import("exceljs"),
    import("node:stream"),
  ]);
  const output = new PassThrough();
  output.on("data", (chunk: Uint8Array) => sink(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    output.on("end", resolve);
    output.on("error", reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = columns.map((column) => ({
    header: column.header,
    key: column.header,
    width: column.width,
    ...(column.kind === "time" && { style: { numFmt: TIME_FORMAT } }),
    ...(column.kind === "amount" && { style: { numFmt: TWO_DECIMALS } }),
  }));
  return {
    async write(rows) {
      for (const row of rows) {
        const added = sheet.addRow(columns.map((column) => {
          const value = column.value(row);
          if (value === null) return null;
          if (column.kind === "time") return new Date(wallClockMs(value as number, timeZone));
          if (column.kind === "amount") {
            return (value as number) / 10 ** currencyDigits(row.currency);
          }
          return value;
        }));
        // A cell's own format only where the currency has other than two decimals: a style per
        // cell is an object per cell, and most shops sell in one currency of two.
        const format = amountFormat(row.currency);
        if (format !== TWO_DECIMALS) {
          columns.forEach((column, index) => {
            if (column.kind === "amount") added.getCell(index + 1).numFmt = format;
          });
        }
        added.commit();
      }
      while (backlog(sheet) > MAX_BACKLOG_BYTES) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    },
    async end() {
      sheet.commit();
      await workbook.commit();
      await finished;
    },
  };
}
