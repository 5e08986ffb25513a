/** Talking to a fake PayU in tests: tokens, API calls, a notification receiver. */
import { createHash } from "node:crypto";
import { createFakePayu, type FakePayu, type FakePayuOptions } from "../../fakes/payu/mod.ts";

/**
 * The OpenPayu-Signature PayU documents for `body`, computed here and not by the fake:
 * `sender=checkout;signature=hex(hash(body + second key));algorithm=ALG;content=DOCUMENT`.
 */
export function payuSignature(
  body: string,
  secondKey: string,
  algorithm: "MD5" | "SHA-256" = "MD5",
): string {
  const hash = algorithm === "MD5" ? "md5" : "sha256";
  const hex = createHash(hash).update(body + secondKey).digest("hex");
  return `sender=checkout;signature=${hex};algorithm=${algorithm};content=DOCUMENT`;
}

/** A notification the in-process receiver got. */
export interface ReceivedNotification {
  url: string;
  body: string;
  signature: string | null;
  contentType: string | null;
}

/** A fake PayU whose notifications land in `received`, answered with `answers` (then 200). */
export function fakeWithReceiver(options: FakePayuOptions = {}): {
  fake: FakePayu;
  received: ReceivedNotification[];
  answers: number[];
} {
  const received: ReceivedNotification[] = [];
  const answers: number[] = [];
  const fake = createFakePayu({
    ...options,
    switches: {
      notifyDelayMs: 0,
      confirmTimeoutMs: null,
      notifyRetryDelaysMs: [0, 0, 0],
      ...options.switches,
    },
    notifyFetch: async (request) => {
      received.push({
        url: request.url,
        body: await request.text(),
        signature: request.headers.get("openpayu-signature"),
        contentType: request.headers.get("content-type"),
      });
      return new Response(null, { status: answers.shift() ?? 200 });
    },
  });
  return { fake, received, answers };
}

/** A JSON answer of the fake. */
export interface Answer {
  status: number;
  contentType: string | null;
  // deno-lint-ignore no-explicit-any
  body: any;
  headers: Headers;
}

/** Gets a bearer token with the fake's own credentials. */
export async function tokenOf(fake: FakePayu): Promise<string> {
  const answer = await oauth(fake, {
    grant_type: "client_credentials",
    client_id: fake.credentials.clientId,
    client_secret: fake.credentials.clientSecret,
  });
  return answer.body.access_token;
}

/** POSTs the OAuth form. */
export async function oauth(
  fake: FakePayu,
  form: Record<string, string>,
  contentType = "application/x-www-form-urlencoded",
): Promise<Answer> {
  return await answerOf(
    fake.fetch(
      new Request("http://payu.test/pl/standard/user/oauth/authorize", {
        method: "POST",
        headers: { "content-type": contentType },
        body: new URLSearchParams(form).toString(),
      }),
    ),
  );
}

/** Calls the API with a token (a fresh one unless given; "" sends none). */
export async function api(
  fake: FakePayu,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<Answer> {
  const bearer = token ?? await tokenOf(fake);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (bearer !== "") headers.authorization = `Bearer ${bearer}`;
  return await answerOf(
    fake.fetch(
      new Request(`http://payu.test${path}`, {
        method,
        headers,
        body: body === undefined
          ? undefined
          : typeof body === "string"
          ? body
          : JSON.stringify(body),
      }),
    ),
  );
}

/** An order request as Paystead sends it, with the given BLIK code. */
export function orderRequest(
  fake: FakePayu,
  code: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    notifyUrl: "http://paystead.test/providers/payu/notify",
    customerIp: "203.0.113.7",
    merchantPosId: fake.credentials.posId,
    description: "Coffee",
    currencyCode: "PLN",
    totalAmount: "1250",
    extOrderId: `att_${crypto.randomUUID()}`,
    buyer: { email: "buyer@example.com" },
    products: [{ name: "Coffee", unitPrice: "1250", quantity: "1" }],
    payMethods: { payMethod: { type: "PBL", value: "blik", authorizationCode: code } },
    ...overrides,
  };
}

async function answerOf(response: Promise<Response>): Promise<Answer> {
  const resolved = await response;
  const text = await resolved.text();
  return {
    status: resolved.status,
    contentType: resolved.headers.get("content-type"),
    body: text === "" ? null : JSON.parse(text),
    headers: resolved.headers,
  };
}

/** Waits until `condition` holds; throws after 10 s (a hang, not a measurement). */
export async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
