import type { StatementDialect } from "../../reconciliations/statement.ts";

/**
 * PayU's operation statement, as PayU documents its CSV ("Statements", "CSV format description":
 * https://developers.payu.com/en/statements.html, https://developers.payu.com/pl/statements.html,
 * https://developers.payu.com/europe/docs/reporting/statements). The merchant chooses a
 * statement's columns and their order, and PayU names them in the panel's language: each column
 * is found by its English or its Polish name, in any case. Dates are yyyy-mm-dd and amounts are
 * written like "1,00"; the merchant's order id is the `extOrderId` Paystead sent (an attempt id).
 */
export const PAYU_STATEMENT: StatementDialect = {
  source: "PayU",
  columns: {
    day: ["date", "data"],
    transactionId: ["trans id", "id transakcji"],
    amount: ["amount", "kwota"],
    currency: ["currency", "waluta"],
    kind: ["type of operation", "typ operacji"],
    balance: ["account balance", "saldo"],
    // "Order ID" in both languages: Classic API's order_id, REST API's extOrderId.
    orderId: ["order id"],
    // The Polish page names this column ("Saldo" stays empty unless the statement has
    // "Prowizja"); the stored English table ends before its row, so "commission" is the word the
    // English page uses for PayU's prowizja. An English name that differs only leaves the column
    // unread: it is optional, and no other column is taken for it.
    commission: ["commission", "prowizja"],
  },
  // The "Type of operation" values PayU documents as the most common ones.
  kinds: {
    t: "PURCHASE",
    c: "REFUND",
    r: "COMMISSION",
    // Commission charged for instalment payments.
    cr: "COMMISSION",
    // A commission returned, and a correction of one.
    rc: "COMMISSION",
    bc: "COMMISSION",
    w: "PAYOUT",
    // A cancelled payout.
    wc: "PAYOUT",
    // No change of the account's balance.
    nt: null,
    // An overpayment's return to the payer, and its cancellation: neither the shop's sale, a
    // refund of one, a fee nor a payout, so Paystead has nothing to match them with.
    or: null,
    orc: null,
  },
  // Fees are counted net of those returned, payouts of those cancelled. A correction goes either
  // way, so only its sign can tell; PayU does not document its signs.
  flows: { rc: "back", wc: "back", bc: "signed" },
};
