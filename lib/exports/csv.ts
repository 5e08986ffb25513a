import { toIso } from "../clock.ts";
import { formatMajorAmount } from "../money.ts";
import type { Column } from "./columns.ts";
import type { SheetWriter, Sink } from "./sheet.ts";

/**
 * A value a spreadsheet would read as a formula (OWASP's CSV injection: `=`, `+`, `-`, `@`, tab,
 * carriage return first) is written behind a single quote, so it is shown as text and never run.
 * Polish Excel splits a CSV at `;` (and a paste at tabs, lines), quotes or not: each piece such a
 * split would start (`Acme;=1+1;`) gets its quote too (issue 43).
 */
export function neutralise(value: string): string {
  const first = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return first.replace(/([;\t\r\n])(?=[\s"]*[=+\-@])/g, "$1'");
}

function csvValue<R extends { currency: string }>(column: Column<R>, row: R): string | null {
  const value = column.value(row);
  if (value === null) return null;
  if (column.kind === "time") return toIso(value as number);
  if (column.kind === "amount") return formatMajorAmount(value as number, row.currency);
  return String(value);
}

/**
 * Writes an export as RFC 4180 CSV (CRLF, quotes where needed) in UTF-8 with a BOM, so Excel in a
 * Polish locale reads the characters right: amounts in major units with a dot, times in ISO 8601.
 * csv-stringify is imported at the first CSV export (a string literal, which `deno compile`
 * embeds): a process that exports nothing does not hold it (issue 34, idle memory).
 */
export async function csvWriter<R extends { currency: string }>(
  columns: Column<R>[],
  sink: Sink,
): Promise<SheetWriter<R>> {
  const { stringify } = await import("csv-stringify");
  const stringifier = stringify({
    bom: true,
    header: true,
    columns: columns.map((column) => column.header),
    record_delimiter: "windows",
    cast: { string: neutralise },
  });
  stringifier.on("data", (chunk: Uint8Array) => sink(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stringifier.on("end", resolve);
    stringifier.on("error", reject);
  });
  return {
    write(rows) {
      for (const row of rows) stringifier.write(columns.map((column) => csvValue(column, row)));
      return Promise.resolve();
    },
    async end() {
      stringifier.end();
      await ended;
    },
  };
}
