import assert from "node:assert/strict";
import {
  generateSigningSecret,
  signatureProblem,
  webhookHeaders,
} from "../lib/webhooks/signing.ts";

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const BODY = '{"id":"evt_1","type":"webhook.test"}';

function signed(secrets: string[], timestampSeconds = NOW / 1000): Headers {
  return new Headers(webhookHeaders({ id: "evt_1", timestampSeconds, body: BODY, secrets }));
}

Deno.test("[webhooks] the inbox's signature check accepts what the sender signs", async (t) => {
  const secret = generateSigningSecret();
  const previous = generateSigningSecret();

  await t.step("one secret", () => {
    assert.equal(signatureProblem(BODY, signed([secret]), [secret], NOW), null);
  });
  await t.step("during a rotation, either secret", () => {
    const headers = signed([secret, previous]);
    assert.equal(signatureProblem(BODY, headers, [previous], NOW), null);
    assert.equal(signatureProblem(BODY, headers, [secret], NOW), null);
  });
});

Deno.test("[webhooks] the inbox's signature check says why a delivery fails", async (t) => {
  const secret = generateSigningSecret();

  await t.step("another secret", () => {
    assert.equal(
      signatureProblem(BODY, signed([secret]), [generateSigningSecret()], NOW),
      "No webhook-signature matches a signing secret.",
    );
  });
  await t.step("a changed body", () => {
    assert.equal(
      signatureProblem(`${BODY} `, signed([secret]), [secret], NOW),
      "No webhook-signature matches a signing secret.",
    );
  });
  await t.step("a timestamp 301 s old", () => {
    assert.equal(
      signatureProblem(BODY, signed([secret], NOW / 1000 - 301), [secret], NOW),
      "webhook-timestamp is outside the tolerance window (a replay, or a wrong clock).",
    );
  });
  await t.step("a missing header", () => {
    const headers = signed([secret]);
    headers.delete("webhook-id");
    assert.equal(
      signatureProblem(BODY, headers, [secret], NOW),
      "Missing webhook-id, webhook-timestamp or webhook-signature header.",
    );
  });
});
