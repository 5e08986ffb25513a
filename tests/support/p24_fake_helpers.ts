/**
 * Talking to a fake Przelewy24 in tests: Basic auth, API calls, a notification receiver, and
 * P24's `sign` computed here from the documented JSON strings, not by the fake.
 */
import { createFakeP24, type FakeP24, type FakeP24Options } from "../../fakes/p24/mod.ts";

/** A notification the in-process receiver got. */
export interface ReceivedP24Notification {
  url: string;
  // deno-lint-ignore no-explicit-any
  body: any;
  raw: string;
  contentType: string | null;
}

/** A fake P24 whose notifications land in `received`, answered with `answers` (then 200). */
export function p24WithReceiver(options: FakeP24Options = {}): {
  fake: FakeP24;
  received: ReceivedP24Notification[];
  answers: number[];
} {
  const received: ReceivedP24Notification[] = [];
  const answers: number[] = [];
  const fake = createFakeP24({
    ...options,
    switches: {
      notifyDelayMs: 0,
      blikDecisionDelayMs: 0,
      blikConfirmTimeoutMs: null,
      notifyRetryDelaysMs: [],
      ...options.switches,
    },
    notifyFetch: async (request) => {
      const raw = await request.text();
      received.push({
        url: request.url,
        body: JSON.parse(raw),
        raw,
        contentType: request.headers.get("content-type"),
      });
      return new Response(null, { status: answers.shift() ?? 200 });
    },
  });
  return { fake, received, answers };
}

/** A JSON answer of the fake. */
export interface P24Answer {
  status: number;
  contentType: string | null;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** `Authorization: Basic` with the fake's posId and API key (or the given pair). */
export function basic(fake: FakeP24, user?: string, password?: string): string {
  return `Basic ${
    btoa(`${user ?? fake.credentials.posId}:${password ?? fake.credentials.apiKey}`)
  }`;
}

/** Calls the API; `auth` null sends no Authorization header. */
export async function p24Api(
  fake: FakeP24,
  method: string,
  path: string,
  body?: unknown,
  auth: string | null = basic(fake),
): Promise<P24Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (auth !== null) headers.authorization = auth;
  const response = await fake.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: text === "" ? null : JSON.parse(text),
  };
}

/** SHA-384 hex of `text` (Web Crypto: independent of the fake's node:crypto). */
export async function sha384(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-384", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A JSON string as P24's docs write them: PHP's JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES. */
function str(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** register's sign: `{"sessionId":"str","merchantId":int,"amount":int,"currency":"str","crc":"str"}`. */
export function registerSign(
  sessionId: string,
  merchantId: number,
  amount: number,
  currency: string,
  crc: string,
): Promise<string> {
  return sha384(
    `{"sessionId":${str(sessionId)},"merchantId":${merchantId},"amount":${amount},"currency":${
      str(currency)
    },"crc":${str(crc)}}`,
  );
}

/** verify's sign: `{"sessionId":"str","orderId":int,"amount":int,"currency":"str","crc":"str"}`. */
export function verifySign(
  sessionId: string,
  orderId: number,
  amount: number,
  currency: string,
  crc: string,
): Promise<string> {
  return sha384(
    `{"sessionId":${str(sessionId)},"orderId":${orderId},"amount":${amount},"currency":${
      str(currency)
    },"crc":${str(crc)}}`,
  );
}

/** The transaction notification's sign, from its documented field list. */
export function statusNotificationSign(
  // deno-lint-ignore no-explicit-any
  n: any,
  crc: string,
): Promise<string> {
  return sha384(
    `{"merchantId":${n.merchantId},"posId":${n.posId},"sessionId":${
      str(n.sessionId)
    },"amount":${n.amount},"originAmount":${n.originAmount},"currency":${
      str(n.currency)
    },"orderId":${n.orderId},"methodId":${n.methodId},"statement":${str(n.statement)},"crc":${
      str(crc)
    }}`,
  );
}

/** The BLIK notification's sign: `{"orderId","sessionId","method","result","crc"}`. */
// deno-lint-ignore no-explicit-any
export function blikNotificationSign(data: any, crc: string): Promise<string> {
  const r = data.result;
  return sha384(
    `{"orderId":${data.orderId},"sessionId":${str(data.sessionId)},"method":${data.method},` +
      `"result":{"error":${str(r.error)},"message":${str(r.message)},"status":${
        str(r.status)
      },"trxRef":${str(r.trxRef)}},"crc":${str(crc)}}`,
  );
}

/** The refund notification's sign. */
// deno-lint-ignore no-explicit-any
export function refundNotificationSign(n: any, crc: string): Promise<string> {
  return sha384(
    `{"orderId":${n.orderId},"sessionId":${str(n.sessionId)},"refundsUuid":${
      str(n.refundsUuid)
    },"merchantId":${n.merchantId},"amount":${n.amount},"currency":${
      str(n.currency)
    },"status":${n.status},"crc":${str(crc)}}`,
  );
}

/** A register body as a shop sends it for BLIK, signed; `overrides` replace fields (not sign). */
export async function registerBody(
  fake: FakeP24,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {
    merchantId: fake.credentials.merchantId,
    posId: fake.credentials.posId,
    sessionId: `att_${crypto.randomUUID()}`,
    amount: 1250,
    currency: "PLN",
    description: "Coffee",
    email: "buyer@example.com",
    country: "PL",
    language: "pl",
    urlReturn: "https://shop.test/pay/pay_1/return",
    urlStatus: "https://shop.test/providers/przelewy24/notify",
    urlCardPaymentNotification: "https://shop.test/providers/przelewy24/blik",
    channel: 8192,
    waitForResult: false,
    regulationAccept: false,
    additional: { PSU: { IP: "203.0.113.7", userAgent: "Mozilla/5.0 (test)" } },
    ...overrides,
  };
  body.sign = await registerSign(
    body.sessionId as string,
    body.merchantId as number,
    body.amount as number,
    body.currency as string,
    fake.credentials.crc,
  );
  return body;
}

/** Registers a transaction; returns its token and session id. */
export async function registered(
  fake: FakeP24,
  overrides: Record<string, unknown> = {},
): Promise<{ token: string; sessionId: string; body: Record<string, unknown> }> {
  const body = await registerBody(fake, overrides);
  const answer = await p24Api(fake, "POST", "/api/v1/transaction/register", body);
  if (answer.status !== 200) {
    throw new Error(`register: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return { token: answer.body.data.token, sessionId: body.sessionId as string, body };
}

/** A verify body for a paid transaction, signed here. */
export async function verifyBody(
  fake: FakeP24,
  t: { sessionId: string; orderId: number; amount?: number; currency?: string },
): Promise<Record<string, unknown>> {
  const amount = t.amount ?? 1250;
  const currency = t.currency ?? "PLN";
  return {
    merchantId: fake.credentials.merchantId,
    posId: fake.credentials.posId,
    sessionId: t.sessionId,
    amount,
    currency,
    orderId: t.orderId,
    sign: await verifySign(t.sessionId, t.orderId, amount, currency, fake.credentials.crc),
  };
}
