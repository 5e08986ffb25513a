import ExcelJS from "exceljs";
import { PassThrough } from "node:stream";
import { currencyDigits } from "../money.ts";
import { wallClockMs } from "../time_zone.ts";
import type { Column } from "./columns.ts";
import type { SheetWriter, Sink } from "./sheet.ts";

const TIME_FORMAT = "yyyy-mm-dd hh:mm:ss";

function amountFormat(currency: string): string {
  const digits = currencyDigits(currency);
  return digits === 0 ? "0" : `0.${"0".repeat(digits)}`;
}

/**
 * Writes an export as a workbook with typed cells, through exceljs's streaming writer: amounts as
 * numbers in major units with the currency's decimals, times as dates showing the wall clock of
 * `timeZone` (a spreadsheet's dates have no time zone), text as text, never as a formula.
 */
export function xlsxWriter<R extends { currency: string }>(
  sheetName: string,
  columns: Column<R>[],
  timeZone: string,
  sink: Sink,
): SheetWriter<R> {
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
  }));
  return {
    write(rows) {
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
        columns.forEach((column, index) => {
          if (column.kind === "amount") {
            added.getCell(index + 1).numFmt = amountFormat(row.currency);
          }
        });
        added.commit();
      }
      return Promise.resolve();
    },
    async end() {
      sheet.commit();
      await workbook.commit();
      await finished;
    },
  };
}
