import type { StatementDialect } from "../../reconciliations/statement.ts";

/**
 * PayU's operation statement. PayU lets the merchant choose and order a statement's columns, and
 * names them in the panel's language: each column is found by any of its names, in English or
 * Polish, in any case. It writes `;` between fields in Polish, `,` or a tab elsewhere, and the
 * merchant's order id is the `extOrderId` Paystead sent (an attempt id).
 */
export const PAYU_STATEMENT: StatementDialect = {
  source: "PayU",
  columns: {
    day: ["date", "data", "transaction date", "data transakcji"],
    transactionId: ["transaction id", "id transakcji", "trans_id"],
    amount: ["amount", "kwota"],
    currency: ["currency", "waluta"],
    kind: ["operation type", "type of operation", "typ operacji", "rodzaj operacji"],
    balance: ["balance", "account balance", "saldo"],
    orderId: ["order id", "id zamówienia", "extorderid", "session id"],
    commission: ["commission", "prowizja"],
  },
  kinds: {
    purchase: "PURCHASE",
    payment: "PURCHASE",
    zakup: "PURCHASE",
    "płatność": "PURCHASE",
    "wpłata": "PURCHASE",
    refund: "REFUND",
    zwrot: "REFUND",
    commission: "COMMISSION",
    fee: "COMMISSION",
    prowizja: "COMMISSION",
    payout: "PAYOUT",
    withdrawal: "PAYOUT",
    "wypłata": "PAYOUT",
  },
};
