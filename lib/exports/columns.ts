import type { PaymentExportRow, RefundExportRow } from "../../db/exports.ts";

/** How a column's values are written: text, an instant, or an amount in minor units. */
export type ColumnKind = "text" | "integer" | "time" | "amount";

/** One column of an export: its header and how a row gives its value. */
export interface Column<R> {
  header: string;
  kind: ColumnKind;
  /** Text, an integer, epoch ms (`time`) or minor units (`amount`, in the row's currency). */
  value(row: R): string | number | null;
  /** The column's width in a workbook, in characters. */
  width: number;
}

/** The columns of a payments export, in the contract's order. */
export const PAYMENT_COLUMNS: Column<PaymentExportRow>[] = [
  { header: "createdAt", kind: "time", value: (row) => row.created_at, width: 20 },
  { header: "paymentId", kind: "text", value: (row) => row.public_id, width: 30 },
  { header: "providerOrderId", kind: "text", value: (row) => row.provider_order_id, width: 30 },
  { header: "status", kind: "text", value: (row) => row.status, width: 12 },
  { header: "qrId", kind: "text", value: (row) => row.qr_id, width: 30 },
  { header: "offerName", kind: "text", value: (row) => row.offer_name, width: 30 },
  { header: "quantity", kind: "integer", value: (row) => row.quantity, width: 10 },
  { header: "amount", kind: "amount", value: (row) => row.amount, width: 12 },
  { header: "currency", kind: "text", value: (row) => row.currency, width: 10 },
  { header: "amountRefunded", kind: "amount", value: (row) => row.amount_refunded, width: 15 },
  { header: "customerEmail", kind: "text", value: (row) => row.customer_email, width: 30 },
  {
    header: "invoiceCompanyName",
    kind: "text",
    value: (row) => row.invoice_company_name,
    width: 30,
  },
  { header: "invoiceTaxId", kind: "text", value: (row) => row.invoice_tax_id, width: 14 },
  { header: "failureCode", kind: "text", value: (row) => row.failure_code, width: 18 },
  { header: "succeededAt", kind: "time", value: (row) => row.succeeded_at, width: 20 },
  { header: "paymentMethod", kind: "text", value: (row) => row.payment_method, width: 14 },
  { header: "bank", kind: "text", value: (row) => row.bank, width: 14 },
];

/** The columns of a refunds export, in the contract's order. */
export const REFUND_COLUMNS: Column<RefundExportRow>[] = [
  { header: "createdAt", kind: "time", value: (row) => row.created_at, width: 20 },
  { header: "refundId", kind: "text", value: (row) => row.public_id, width: 30 },
  { header: "paymentId", kind: "text", value: (row) => row.payment_public_id, width: 30 },
  { header: "providerRefundId", kind: "text", value: (row) => row.provider_ref, width: 24 },
  { header: "status", kind: "text", value: (row) => row.status, width: 12 },
  { header: "amount", kind: "amount", value: (row) => row.amount, width: 12 },
  { header: "currency", kind: "text", value: (row) => row.currency, width: 10 },
  { header: "reason", kind: "text", value: (row) => row.reason, width: 40 },
];
