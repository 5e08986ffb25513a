import assert from "node:assert/strict";
import {
  parseSignatureHeader,
  signNotification,
  verifyNotificationSignature,
} from "../lib/providers/payu/signature.ts";

// Expected digests computed outside Deno (Python's hashlib) of BODY + KEY.
const BODY = '{"order":{"orderId":"LDLW5N7MF4140324GUEST000P01","status":"COMPLETED"}}';
const KEY = "b6ca15b0d1020e8094d9b5f8d163db54";
const DIGESTS = {
  "MD5": "a8d51e1272b7c328c140893b65d0539b",
  "SHA-1": "353584fb34b9aa82e0aa9ab0bfdb916e14ced737",
  "SHA-256": "2aa6adefe4786d4a170c89c168790b9e6889925e087676a8916ebc50923c610b",
  "SHA-384":
    "7d24e51b55fa5bb9dd4e6cc31d0fd8a0e929593733c2f1d48394fdad777e5233e9d21bfc516e47b11a49047ff9e8a2e5",
  "SHA-512":
    "b56e81320964ff908494c43cbcf480037232690e89b72e431228219e3228c3a0630bff74a0c4f3089d70b88d34f0addc83fbc001f635ef0020f7e30e822ddbc1",
} as const;

Deno.test("[payu signature] signs with each algorithm PayU names", () => {
  for (const [algorithm, digest] of Object.entries(DIGESTS)) {
    assert.equal(
      signNotification(BODY, KEY, algorithm as keyof typeof DIGESTS),
      `sender=checkout;signature=${digest};algorithm=${algorithm};content=DOCUMENT`,
    );
  }
  assert.equal(
    signNotification(BODY, KEY),
    `sender=checkout;signature=${DIGESTS.MD5};algorithm=MD5;content=DOCUMENT`,
  );
});

Deno.test("[payu signature] verifies every algorithm and spelling PayU uses", async (t) => {
  const spellings: [string, string][] = [
    ["MD5", DIGESTS.MD5],
    ["md5", DIGESTS.MD5],
    ["SHA", DIGESTS["SHA-1"]],
    ["SHA1", DIGESTS["SHA-1"]],
    ["SHA-1", DIGESTS["SHA-1"]],
    ["SHA-256", DIGESTS["SHA-256"]],
    ["sha256", DIGESTS["SHA-256"]],
    ["SHA-384", DIGESTS["SHA-384"]],
    ["SHA-512", DIGESTS["SHA-512"]],
  ];
  for (const [algorithm, digest] of spellings) {
    await t.step(algorithm, async () => {
      const header = `sender=checkout;signature=${digest};algorithm=${algorithm};content=DOCUMENT`;
      assert.equal(await verifyNotificationSignature(BODY, header, KEY), true);
      assert.equal(
        await verifyNotificationSignature(new TextEncoder().encode(BODY), header, KEY),
        true,
      );
    });
  }
});

Deno.test("[payu signature] parses the header tolerantly", async () => {
  const digest = DIGESTS["SHA-256"];
  const headers = [
    `algorithm=SHA-256;content=DOCUMENT;signature=${digest};sender=checkout`,
    ` sender = checkout ; signature = ${digest} ; algorithm = sha-256 ; content = DOCUMENT ;`,
    `signature=${digest.toUpperCase()};algorithm=SHA-256`,
    `Signature=${digest};ALGORITHM=SHA-256`,
  ];
  for (const header of headers) {
    assert.equal(await verifyNotificationSignature(BODY, header, KEY), true, header);
  }
  assert.deepEqual(parseSignatureHeader(headers[1]), { signature: digest, algorithm: "SHA-256" });
});

Deno.test("[payu signature] hashes the body's UTF-8 bytes", async () => {
  const body = '{"x":"zażółć"}';
  const header = signNotification(body, KEY);
  assert.equal(
    header,
    `sender=checkout;signature=8b0c3663307ba317d5528f5175ea853f;algorithm=MD5;content=DOCUMENT`,
  );
  assert.equal(await verifyNotificationSignature(body, header, KEY), true);
});

Deno.test("[payu signature] anything wrong or malformed is false", async (t) => {
  const good = signNotification(BODY, KEY, "SHA-256");
  const cases: [string, string | null | undefined, string, string][] = [
    ["another body", good, KEY, BODY + " "],
    ["another key", good, "0" + KEY.slice(1), BODY],
    ["empty key", signNotification(BODY, ""), "", BODY],
    ["no header", null, KEY, BODY],
    ["undefined header", undefined, KEY, BODY],
    ["empty header", "", KEY, BODY],
    ["digest of another algorithm", good.replace("SHA-256", "SHA-512"), KEY, BODY],
    ["unknown algorithm", good.replace("SHA-256", "SHA-3"), KEY, BODY],
    ["no algorithm", `sender=checkout;signature=${DIGESTS.MD5}`, KEY, BODY],
    ["no signature", "sender=checkout;algorithm=MD5;content=DOCUMENT", KEY, BODY],
    ["empty signature", "signature=;algorithm=MD5", KEY, BODY],
    ["not hex", `signature=${"z".repeat(32)};algorithm=MD5`, KEY, BODY],
    ["truncated", `signature=${DIGESTS.MD5.slice(0, 31)};algorithm=MD5`, KEY, BODY],
    ["longer", `signature=${DIGESTS.MD5}00;algorithm=MD5`, KEY, BODY],
    ["twice", `signature=${DIGESTS.MD5};signature=${DIGESTS.MD5};algorithm=MD5`, KEY, BODY],
    ["part without =", `signature=${DIGESTS.MD5};algorithm=MD5;garbage`, KEY, BODY],
    ["part without key", `=x;signature=${DIGESTS.MD5};algorithm=MD5`, KEY, BODY],
  ];
  for (const [name, header, key, body] of cases) {
    await t.step(name, async () => {
      assert.equal(await verifyNotificationSignature(body, header, key), false);
    });
  }
});
