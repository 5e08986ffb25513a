import { ApiError } from "../errors.ts";
import { isDay } from "../exports/schemas.ts";
import { currencyDigits, isCurrency, MAX_AMOUNT } from "../money.ts";

/** The largest statement accepted: a month of a busy shop's operations is far below it. */
export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024;

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

/** A statement read whole: its operations and the days they cover. */
export interface Statement {
  operations: Operation[];
  from: string;
  to: string;
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

/** The 1-based line `offset` (a character index of `text`) is on. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < offset;
    index = text.indexOf("\n", index + 1)
  ) {
    line++;
  }
  return line;
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
      } column (the header names ${header.map((name) => `'${name}'`).join(", ")}).`,
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

/**
 * Reads a provider's operation statement (CSV, as its panel and API produce it) in its
 * `dialect`. Anything that is not one (not UTF-8 text, no header of its columns, a field that is
 * not what its column holds, a line with another number of fields, over 10 MiB) is a 400 naming
 * the line it stopped at. csv-parse is imported at the first statement (a string literal, which
 * `deno compile` embeds): a process that reconciles nothing does not hold it (issue 34).
 */
export async function parseStatement(
  dialect: StatementDialect,
  bytes: Uint8Array,
): Promise<Statement> {
  const text = new TextDecoder("utf-8").decode(bytes.subarray(0, MAX_STATEMENT_BYTES + 1));
  if (bytes.byteLength > MAX_STATEMENT_BYTES) {
    throw invalid(
      lineAt(text, text.length),
      `the statement is larger than 10 MiB; download ${dialect.source}'s statement of a shorter period.`,
    );
  }
  const broken = text.indexOf("\uFFFD");
  if (broken !== -1) throw invalid(lineAt(text, broken), "this is not UTF-8 text, so not a CSV.");
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstLine = text.slice(start, text.indexOf("\n") === -1 ? undefined : text.indexOf("\n"));
  const { parse } = await import("csv-parse/sync");
  let columns: Partial<Record<ColumnName, number>> | undefined;
  const operations: Operation[] = [];
  try {
    // Each record is read into an operation as it is parsed, and not kept as text.
    parse(text.slice(start), {
      delimiter: delimiterOf(firstLine),
      skip_empty_lines: true,
      on_record: (record, context) => {
        if (columns === undefined) columns = columnsOf(dialect, record);
        else operations.push(operationOf(dialect, record, context.lines, columns));
        return null;
      },
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const line = (error as { lines?: number }).lines ?? 1;
    throw invalid(line, `this is not valid CSV (${(error as Error).message}).`);
  }
  if (columns === undefined) throw invalid(1, "the statement is empty.");
  if (operations.length === 0) throw invalid(2, "the statement has no operations.");
  const days = operations.map((operation) => operation.day).sort();
  return { operations, from: days[0], to: days[days.length - 1] };
}
