/**
 * P24's `sign`: SHA-384, hex, of a JSON object of named fields in a documented order with the CRC
 * last, encoded as PHP's `json_encode(..., JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES)`
 * ("Calculating Sign"; its JavaScript sample is `JSON.stringify(params)`): integers stay
 * numbers, strings are not escaped beyond JSON's own rules.
 */
import { createHash } from "node:crypto";
import type { BlikResult } from "./wire.ts";

/** SHA-384 hex of the fields as one JSON object, in the order given. */
export function p24Sign(fields: Record<string, unknown>): string {
  return createHash("sha384").update(JSON.stringify(fields), "utf8").digest("hex");
}

/** transaction/register: `{"sessionId","merchantId","amount","currency","crc"}`. */
export function registerSign(
  t: { sessionId: string; merchantId: number; amount: number; currency: string },
  crc: string,
): string {
  return p24Sign({
    sessionId: t.sessionId,
    merchantId: t.merchantId,
    amount: t.amount,
    currency: t.currency,
    crc,
  });
}

/** transaction/verify: `{"sessionId","orderId","amount","currency","crc"}`. */
export function verifySign(
  t: { sessionId: string; orderId: number; amount: number; currency: string },
  crc: string,
): string {
  return p24Sign({
    sessionId: t.sessionId,
    orderId: t.orderId,
    amount: t.amount,
    currency: t.currency,
    crc,
  });
}

/** The fields of the transaction notification (`TransactionResult`) before its sign. */
export interface StatusFields {
  merchantId: number;
  posId: number;
  sessionId: string;
  amount: number;
  originAmount: number;
  currency: string;
  orderId: number;
  methodId: number;
  statement: string;
}

/** The notification to urlStatus: every field of TransactionResult, in order, then the CRC. */
export function statusSign(fields: StatusFields, crc: string): string {
  return p24Sign({
    merchantId: fields.merchantId,
    posId: fields.posId,
    sessionId: fields.sessionId,
    amount: fields.amount,
    originAmount: fields.originAmount,
    currency: fields.currency,
    orderId: fields.orderId,
    methodId: fields.methodId,
    statement: fields.statement,
    crc,
  });
}

/** The refund notification (`TransactionRefundResult`) before its sign. */
export interface RefundFields {
  orderId: number;
  sessionId: string;
  refundsUuid: string;
  merchantId: number;
  amount: number;
  currency: string;
  status: number;
}

/** `{"orderId","sessionId","refundsUuid","merchantId","amount","currency","status","crc"}`. */
export function refundSign(fields: RefundFields, crc: string): string {
  return p24Sign({
    orderId: fields.orderId,
    sessionId: fields.sessionId,
    refundsUuid: fields.refundsUuid,
    merchantId: fields.merchantId,
    amount: fields.amount,
    currency: fields.currency,
    status: fields.status,
    crc,
  });
}

/** The BLIK notification: `{"orderId","sessionId","method","result","crc"}`, result an object. */
export function blikSign(
  fields: { orderId: number; sessionId: string; method: number; result: BlikResult },
  crc: string,
): string {
  return p24Sign({
    orderId: fields.orderId,
    sessionId: fields.sessionId,
    method: fields.method,
    result: {
      error: fields.result.error,
      message: fields.result.message,
      status: fields.result.status,
      trxRef: fields.result.trxRef,
    },
    crc,
  });
}
