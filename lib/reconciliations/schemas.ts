import { z } from "zod";
import { Timestamp } from "../schemas.ts";

const Total = z.strictObject({
  amount: z.int().meta({ description: "Minor units.", example: 350 }),
  currency: z.string().meta({ example: "PLN" }),
}).meta({ id: "MoneyTotal" });

export const PROBLEM_KINDS = ["unknown_order", "amount_mismatch", "not_in_statement"] as const;

export const ReconciliationProblem = z.strictObject({
  line: z.int().nullable().meta({
    description: "The statement's line (the header is line 1); null for `not_in_statement`.",
  }),
  kind: z.enum(PROBLEM_KINDS).meta({
    description: "`unknown_order`: an order id no payment of this organisation has. " +
      "`amount_mismatch`: the provider's amount is not what Paystead recorded (a payment that did " +
      "not succeed, or a refund Paystead has no match for, counts as 0). `not_in_statement`: " +
      "a payment that succeeded in the statement's period is missing from it.",
  }),
  orderId: z.string().nullable().meta({
    description: "The merchant's order id the provider shows: the attempt id Paystead sent.",
  }),
  transactionId: z.string().nullable().meta({ description: "The provider's transaction id." }),
  paymentId: z.string().nullable(),
  currency: z.string(),
  amount: z.int().nullable().meta({ description: "The statement's amount, minor units." }),
  expectedAmount: z.int().nullable().meta({ description: "Paystead's amount, minor units." }),
  message: z.string(),
}).meta({ id: "ReconciliationProblem" });
export type ReconciliationProblem = z.infer<typeof ReconciliationProblem>;

export const Reconciliation = z.strictObject({
  reconciliationId: z.string().meta({ example: "rec_4f9TqYcW2mJx8bN3kL6pR1sV" }),
  from: z.iso.date().meta({ description: "The statement's first day." }),
  to: z.iso.date().meta({ description: "The statement's last day." }),
  operations: z.int().meta({ description: "How many operations the statement had." }),
  matched: z.int().meta({
    description: "Purchases and refunds that match a payment or refund exactly.",
  }),
  fees: z.array(Total).meta({
    description: "The provider's commissions per currency, net of those it returned or corrected.",
  }),
  payouts: z.array(Total).meta({
    description: "The provider's payouts per currency, net of those it cancelled.",
  }),
  problems: z.array(ReconciliationProblem).meta({
    description: "The first 100 problems found, in the statement's order and then the payments " +
      "missing from it; `problemCounts` counts them all.",
  }),
  problemCounts: z.strictObject({
    unknown_order: z.int(),
    amount_mismatch: z.int(),
    not_in_statement: z.int(),
  }).meta({ description: "How many problems of each kind were found." }),
  problemsTruncated: z.boolean().meta({
    description: "True when more problems were found than `problems` lists.",
  }),
  createdAt: Timestamp,
}).meta({
  id: "Reconciliation",
  description: "A payment provider's statement matched against Paystead.",
});
export type Reconciliation = z.infer<typeof Reconciliation>;

/** The body of `POST /api/v1/reconciliations`, for the OpenAPI document. */
export const StatementFile = z.string().meta({
  description:
    "The payment provider's operation statement as CSV (`text/csv`, UTF-8, at most 10 MiB), with " +
    "the columns date, transaction id, amount, currency, type of operation and order id, and " +
    "optionally commission and account balance, by the provider's own English or Polish names " +
    "(any order; `;` or `,` between fields; a decimal comma or dot).",
  example: "Data;ID transakcji;Kwota;Waluta;Typ operacji;Saldo;Order ID\n" +
    "2026-11-02;4100000001;12,50;PLN;t;;att_4f9TqYcW2mJx8bN3kL6pR1sV\n",
});
