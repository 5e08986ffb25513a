/**
 * PayU's operation statement as its panel and API write it (https://developers.payu.com/pl/statements.html
 * and /en/statements.html: CSV, columns chosen and ordered by the merchant, named in the panel's
 * language; dates yyyy-mm-dd, amounts like "1,00", money going out negative; the type of operation
 * as PayU's code: t a purchase, c a refund, r a commission, w a payout).
 */

/** One operation of a statement, as the text PayU writes in each column. */
export interface StatementLine {
  date: string;
  transactionId?: string;
  amount: string;
  currency?: string;
  type: string;
  balance?: string;
  orderId?: string;
}

const HEADERS = {
  pl: ["Data", "ID transakcji", "Kwota", "Waluta", "Typ operacji", "Saldo", "Order ID"],
  en: [
    "Date",
    "Trans ID",
    "Amount",
    "Currency",
    "Type of operation",
    "Account balance",
    "Order ID",
  ],
};

/** A statement of `lines`: Polish with semicolons, or English with commas (quoted as needed). */
export function payuStatement(lines: StatementLine[], language: "pl" | "en" = "pl"): string {
  const separator = language === "pl" ? ";" : ",";
  const quote = (value: string) =>
    value.includes(separator) || value.includes('"') ? `"${value.replace(/"/g, '""')}"` : value;
  const rows = lines.map((line) =>
    [
      line.date,
      line.transactionId ?? "",
      line.amount,
      line.currency ?? "PLN",
      line.type,
      line.balance ?? "",
      line.orderId ?? "",
    ].map(quote).join(separator)
  );
  return [HEADERS[language].join(separator), ...rows].join("\r\n") + "\r\n";
}

/**
 * A valid Polish statement of at most `maxBytes` (UTF-8, header included): purchases of orders
 * no payment has, one per line, as many as fit.
 */
export function unknownOrdersStatement(
  maxBytes: number,
): { body: Uint8Array<ArrayBuffer>; lines: number } {
  const header = `${HEADERS.pl.join(";")}\n`;
  const line = (i: number) =>
    `2026-11-21;${4100000000 + i};12,50;PLN;t;;att_${String(i).padStart(8, "0")}\n`;
  const lines = Math.floor((maxBytes - header.length) / line(0).length);
  const parts = [header];
  for (let i = 0; i < lines; i++) parts.push(line(i));
  return { body: new TextEncoder().encode(parts.join("")), lines };
}
