/**
 * PayU's operation statement as its panel and API write it (developers.payu.com, "Statements":
 * CSV, columns chosen and ordered by the merchant, named in the panel's language; amounts with a
 * decimal comma in Polish, money going out negative; the balance after each operation).
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
  pl: ["Data", "ID transakcji", "Kwota", "Waluta", "Typ operacji", "Saldo", "ID zamówienia"],
  en: ["Date", "Transaction ID", "Amount", "Currency", "Operation type", "Balance", "Order ID"],
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
