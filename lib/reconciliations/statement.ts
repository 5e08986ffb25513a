import { ApiError } from "../errors.ts";
import { isDay } from "../exports/schemas.ts";
import { currencyDigits, isCurrency, MAX_AMOUNT } from "../money.ts";

/** The largest statement accepted: a month of a busy shop's operations is far below it. */
export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024;
/** The longest header line: a statement's few column names take far less. */
export const MAX_HEADER_CHARS = 4096;
/** The most columns a header may have: a provider's statement has about a dozen to choose from. */
export const MAX_COLUMNS = 64;
/** The longest record (line) after the header. */
const MAX_RECORD_CHARS = 16 * 1024;
/** The most bytes of the statement decoded and parsed at a time. */
const PIECE_BYTES = 16 * 1024;
/** How many operations `readStatement` hands over at a time. */
export const OPERATION_BATCH = 500;
/** How many of a header's column names a message quotes. */
const NAMED_COLUMNS = 5;

/** What an operation of a provider's statement is, as Paystead reconciles it. */
export type OperationKind = "PURCHASE" | "REFUND" | "COMMISSION" | "PAYOUT";

/** One line of the statement after its header. */
export interface Operation {
  line: number;
  day: string;
  transactionId: string | null;
  /** null: an operation the provider documents that Paystead counts but does not reconcile. */
  kind: OperationKind | null;
  /** The amount without its sign, in minor units: statements write money going out as negative. */
  amount: number;
  /** Money that came back to the merchant (a fee returned, a payout cancelled): it counts against its kind's total. */
  back: boolean;
  currency: string;
  /** The merchant's order id the provider shows: the attempt id Paystead sent it. */
  orderId: string | null;
  /** The line's commission, when the statement has a commission column. */
  commission: number;
}

/**
 * The columns reconciliation reads. A statement may leave out `commission` and `balance` (the
 * merchant chooses a statement's columns; a balance is only checked to be an amount).
 */
export type ColumnName =
  | "day"
  | "transactionId"
  | "amount"
  | "currency"
  | "kind"
  | "balance"
  | "orderId"
  | "commission";
const REQUIRED: ColumnName[] = [
  "day",
  "transactionId",
  "amount",
  "currency",
  "kind",
  "orderId",
];

/**
 * How one provider writes its operation statement (CSV): found in its folder under
 * lib/providers/, read here.
 */
export interface StatementDialect {
  /** Whose statement it is: the provider's name, as the messages say it. */
  source: string;
  /** Each column's names in a header, in lower case; the first is the one messages use. */
  columns: Record<ColumnName, readonly string[]>;
  /** What each operation type, in lower case, is; null for one Paystead does not reconcile. */
  kinds: Record<string, OperationKind | null>;
  /**
   * The types whose money comes back (`back`), and those that go either way, the amount's sign
   * saying which (`signed`: negative is money out); every other type's money goes out.
   */
  flows: Record<string, "back" | "signed">;
}

function invalid(line: number, message: string): ApiError {
  return new ApiError("statement_invalid", `Line ${line}: ${message}`, { param: "body" });
}

/** The separator the header uses most: `;` in Polish statements, `,` or a tab elsewhere. */
function delimiterOf(header: string): string {
  const count = (delimiter: string) => header.split(delimiter).length;
  return [";", ",", "\t"].reduce((best, delimiter) =>
    count(delimiter) > count(best) ? delimiter : best
  );
}

function columnsOf(
  dialect: StatementDialect,
  header: string[],
): Partial<Record<ColumnName, number>> {
  const names = header.map((name) => name.trim().toLowerCase());
  const found: Partial<Record<ColumnName, number>> = {};
  for (
    const [column, aliases] of Object.entries(dialect.columns) as [ColumnName, readonly string[]][]
  ) {
    const index = names.findIndex((name) => aliases.includes(name));
    if (index !== -1) found[column] = index;
  }
  const missing = REQUIRED.filter((column) => found[column] === undefined);
  if (missing.length > 0) {
    throw invalid(
      1,
      `this is not a ${dialect.source} statement: it has no ${
        missing.map((column) => `'${dialect.columns[column][0]}'`).join(", ")
      } column (the header names ${namesOf(header)}).`,
    );
  }
  return found;
}

/**
 * An amount as a statement writes it ("12,50", "-1 250.00", "3"), in minor units without its sign; null
 * when it is not one or has more decimals than the currency.
 */
export function parseStatementAmount(text: string, currency: string): number | null {
  const match = /^[+-]?(\d{1,15})(?:[.,](\d+))?$/.exec(text.replace(/[\s\u00a0]/g, ""));
  if (!match) return null;
  const digits = currencyDigits(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const amount = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return amount <= MAX_AMOUNT ? amount : null;
}

function operationOf(
  dialect: StatementDialect,
  fields: string[],
  line: number,
  columns: Partial<Record<ColumnName, number>>,
): Operation {
  const field = (column: ColumnName) =>
    columns[column] === undefined ? "" : fields[columns[column]!].trim();
  const day = field("day").slice(0, 10);
  if (!isDay(day)) {
    throw invalid(line, `the date '${field("day")}' is not a day (YYYY-MM-DD).`);
  }
  const kind = Object.hasOwn(dialect.kinds, field("kind").toLowerCase())
    ? dialect.kinds[field("kind").toLowerCase()]
    : undefined;
  if (kind === undefined) {
    throw invalid(
      line,
      `the operation type '${field("kind")}' is not one ${dialect.source}'s statements have ` +
        "(a purchase, a refund, a commission or a payout).",
    );
  }
  const currency = field("currency").toUpperCase();
  if (!isCurrency(currency)) {
    throw invalid(line, `the currency '${field("currency")}' is not an ISO 4217 code.`);
  }
  const amount = parseStatementAmount(field("amount"), currency);
  if (amount === null) {
    throw invalid(line, `the amount '${field("amount")}' is not an amount in ${currency}.`);
  }
  const balance = field("balance");
  if (balance !== "" && parseStatementAmount(balance, currency) === null) {
    throw invalid(line, `the balance '${balance}' is not an amount in ${currency}.`);
  }
  const commissionText = field("commission");
  const commission = commissionText === "" ? 0 : parseStatementAmount(commissionText, currency);
  if (commission === null) {
    throw invalid(line, `the commission '${commissionText}' is not an amount in ${currency}.`);
  }
  return {
    line,
    day,
    transactionId: field("transactionId") || null,
    kind,
    amount,
    back: backOf(dialect, field("kind").toLowerCase(), field("amount")),
    currency,
    orderId: field("orderId") || null,
    commission,
  };
}

/** Whether an operation's money came back, by its type wherever the type says which way. */
function backOf(dialect: StatementDialect, type: string, amount: string): boolean {
  if (!Object.hasOwn(dialect.flows, type)) return false;
  return dialect.flows[type] === "back" || !amount.startsWith("-");
}

/** The first few of a header's names, quoted, and how many more it has. */
function namesOf(header: string[]): string {
  const named = header.slice(0, NAMED_COLUMNS).map((name) => `'${name.slice(0, 40)}'`).join(", ");
  const more = header.length - NAMED_COLUMNS;
  return more > 0 ? `${named} and ${more} more` : named;
}

function newlinesIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * The statement's text as it arrives, decoded: a 400 naming the line once it passes 10 MiB or
 * holds bytes that are not UTF-8, and without its byte order mark.
 */
async function* textOf(
  dialect: StatementDialect,
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let bytes = 0;
  let lines = 1;
  let first = true;
  const checked = (text: string) => {
    const broken = text.indexOf("\uFFFD");
    if (broken !== -1) {
      throw invalid(
        lines + newlinesIn(text.slice(0, broken)),
        "this is not UTF-8 text, so not a CSV.",
      );
    }
    lines += newlinesIn(text);
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) return text.slice(1);
    }
    return text;
  };
  for await (const chunk of body) {
    // NOTE: a body already received comes as one chunk of up to 10 MiB; the parser works through
    // each piece it is given without a pause, so it gets them small.
    for (let at = 0; at < chunk.byteLength; at += PIECE_BYTES) {
      const part = chunk.subarray(at, Math.min(at + PIECE_BYTES, chunk.byteLength))
        .subarray(0, MAX_STATEMENT_BYTES + 1 - bytes);
      bytes += part.byteLength;
      const text = decoder.decode(part, { stream: true });
      if (bytes > MAX_STATEMENT_BYTES) {
        throw invalid(
          lines + newlinesIn(text),
          `the statement is larger than 10 MiB; download ${dialect.source}'s statement of a shorter period.`,
        );
      }
      yield checked(text);
    }
  }
  yield checked(decoder.decode());
}

/**
 * Splits the header line off the text: a header line past 4096 characters is a 400 before
 * anything is parsed, so a statement of a million columns costs nothing.
 */
async function headerOf(
  text: AsyncGenerator<string>,
): Promise<{ header: string; rest: string }> {
  let buffered = "";
  for (;;) {
    const newline = buffered.indexOf("\n");
    if (newline !== -1 && newline <= MAX_HEADER_CHARS) {
      return { header: buffered.slice(0, newline), rest: buffered };
    }
    if (buffered.length > MAX_HEADER_CHARS) {
      throw invalid(
        1,
        `the header line is longer than ${MAX_HEADER_CHARS} characters, so it is not a statement's.`,
      );
    }
    const next = await text.next();
    if (next.done) return { header: buffered, rest: buffered };
    buffered += next.value;
  }
}

/**
 * Reads a provider's operation statement (CSV, as its panel and API produce it) in its
 * `dialect` as it arrives, handing over its operations in batches of at most 500, so a statement
 * of any length is read in bounded memory. Anything that is not one (not UTF-8 text, no header of
 * its columns, a header or line far longer than a statement's, a field that is not what its
 * column holds, a line with another number of fields, over 10 MiB, no operations) is a 400 naming
 * the line it stopped at. csv-parse is imported at the first statement (a string literal, which
 * `deno compile` embeds): a process that reconciles nothing does not hold it (issue 34).
 */
export async function* readStatement(
  dialect: StatementDialect,
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<Operation[]> {
  const text = textOf(dialect, body);
  const { header, rest } = await headerOf(text);
  if (header.trim() === "" && rest.trim() === "") throw invalid(1, "the statement is empty.");
  const { parse } = await import("csv-parse/stream");
  // csv-parse's stream takes bytes: the text checked above is handed over encoded again.
  const encoder = new TextEncoder();
  const records = ReadableStream.from((async function* () {
    yield encoder.encode(rest);
    for await (const part of text) yield encoder.encode(part);
  })()).pipeThrough(
    parse({
      delimiter: delimiterOf(header),
      skip_empty_lines: true,
      info: true,
      max_record_size: MAX_RECORD_CHARS,
    }),
  );
  let columns: Partial<Record<ColumnName, number>> | undefined;
  let batch: Operation[] = [];
  let operations = 0;
  try {
    for await (const { record, info } of records as AsyncIterable<ParsedRecord>) {
      if (columns === undefined) {
        if (record.length > MAX_COLUMNS) {
          throw invalid(
            1,
            `the header has ${record.length} columns; a statement has at most ${MAX_COLUMNS}.`,
          );
        }
        columns = columnsOf(dialect, record);
        continue;
      }
      batch.push(operationOf(dialect, record, info.lines, columns));
      if (batch.length === OPERATION_BATCH) {
        operations += batch.length;
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const line = (error as { lines?: number }).lines ?? 1;
    throw invalid(line, `this is not valid CSV (${(error as Error).message}).`);
  }
  if (columns === undefined) throw invalid(1, "the statement is empty.");
  if (operations + batch.length === 0) throw invalid(2, "the statement has no operations.");
  if (batch.length > 0) yield batch;
}

/** A record as csv-parse hands it over with `info: true`. */
interface ParsedRecord {
  record: string[];
  info: { lines: number };
}
