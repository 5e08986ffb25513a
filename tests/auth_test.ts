import assert from "node:assert/strict";
import { updateApiKeyValidity } from "../db/api_keys.ts";
import { setOrganisationPlan } from "../lib/accounts/organisations.ts";
import { createApiKey, hashApiKey } from "../lib/api_keys.ts";
import {
  createOtherOrganisation,
  createTestOffer,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

function get(t: TestApp, authorization?: string) {
  return t.app.request("/api/v1/qr", { headers: authorization ? { authorization } : {} });
}

Deno.test("[auth] API keys are checked and bound to their environment", async (t) => {
  const app = await makeTestApp();
  try {
    await t.step("a valid key is accepted", async () => {
      const response = await get(app, `Bearer ${app.apiKey}`);
      assert.equal(response.status, 200);
    });
    await t.step("no key is 401 api_key_missing", async () => {
      await expectError(
        await get(app),
        401,
        "authentication",
        "api_key_missing",
        "No API key provided. Send it as 'Authorization: Bearer sk_sandbox_...'.",
      );
    });
    await t.step("a non-Bearer header is 401 api_key_invalid", async () => {
      await expectError(
        await get(app, `Basic ${btoa("a:b")}`),
        401,
        "authentication",
        "api_key_invalid",
        "The Authorization header must be 'Bearer <API key>'.",
      );
    });
    await t.step("a malformed key is 401 api_key_invalid", async () => {
      await expectError(
        await get(app, "Bearer sk_sandbox_short"),
        401,
        "authentication",
        "api_key_invalid",
        "The API key is malformed; sandbox keys look like sk_sandbox_ followed by 32 letters and digits.",
      );
    });
    await t.step("an unknown key is 401 and shows only its last four characters", async () => {
      const unknown = `sk_sandbox_${"A".repeat(28)}wxyz`;
      await expectError(
        await get(app, `Bearer ${unknown}`),
        401,
        "authentication",
        "api_key_invalid",
        "Invalid API key provided: sk_sandbox_...wxyz.",
      );
    });
    await t.step("a production key on the sandbox names the production host", async () => {
      await expectError(
        await get(app, `Bearer sk_production_${"a".repeat(32)}`),
        401,
        "authentication",
        "api_key_wrong_environment",
        "This key belongs to the production environment; call the production API host (https://api.paystead.test).",
      );
    });
  } finally {
    await app.close();
  }
});

Deno.test("[auth] a sandbox key on the production host names the sandbox host", async () => {
  const app = await makeTestApp({ environment: "production" });
  try {
    assert.ok(app.apiKey.startsWith("sk_production_"));
    await expectError(
      await get(app, `Bearer sk_sandbox_${"a".repeat(32)}`),
      401,
      "authentication",
      "api_key_wrong_environment",
      "This key belongs to the sandbox environment; call the sandbox API host (http://sandbox.test).",
    );
    assert.equal((await get(app, `Bearer ${app.apiKey}`)).status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("[auth] revoked and expired keys are refused at once", async () => {
  const app = await makeTestApp();
  try {
    const revoked = await createApiKey(app.store, {
      orgId: app.orgId,
      name: "old",
      environment: "sandbox",
      now: app.clock.now(),
    });
    assert.equal((await get(app, `Bearer ${revoked.secret}`)).status, 200);
    await app.store.write((trx) =>
      updateApiKeyValidity(trx, revoked.record.id, { revoked_at: app.clock.now() })
    );
    app.authenticator.invalidate();
    await expectError(
      await get(app, `Bearer ${revoked.secret}`),
      401,
      "authentication",
      "api_key_revoked",
      `The API key sk_sandbox_...${revoked.secret.slice(-4)} has been revoked.`,
    );

    const rolled = await createApiKey(app.store, {
      orgId: app.orgId,
      name: "rolled",
      environment: "sandbox",
      now: app.clock.now(),
    });
    await app.store.write((trx) =>
      updateApiKeyValidity(trx, rolled.record.id, { expires_at: app.clock.now() + 60_000 })
    );
    app.authenticator.invalidate();
    assert.equal((await get(app, `Bearer ${rolled.secret}`)).status, 200);
    app.clock.advance(60_000);
    await expectError(
      await get(app, `Bearer ${rolled.secret}`),
      401,
      "authentication",
      "api_key_expired",
      `The API key sk_sandbox_...${rolled.secret.slice(-4)} has expired.`,
    );
  } finally {
    await app.close();
  }
});

Deno.test("[auth] only a hash and the last four characters of a key are stored", async () => {
  const app = await makeTestApp();
  try {
    const rows = await app.store.db.selectFrom("api_keys").selectAll().execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].secret_hash, hashApiKey(app.apiKey));
    assert.equal(rows[0].last_four, app.apiKey.slice(-4));
    assert.match(rows[0].public_id, /^key_[0-9A-Za-z]{24}$/);
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(app.apiKey.slice("sk_sandbox_".length)));
  } finally {
    await app.close();
  }
});

Deno.test("[auth] the FREE plan gets 403 and a plan change applies", async () => {
  const app = await makeTestApp({ plan: "FREE" });
  try {
    await expectError(
      await get(app, `Bearer ${app.apiKey}`),
      403,
      "permission",
      "plan_required",
      "API access needs plan BASIC or higher; the organisation 'acme' is on FREE.",
    );
    await setOrganisationPlan(app.accounts, "acme", "PRO", app.clock.now());
    app.authenticator.invalidate();
    assert.equal((await get(app, `Bearer ${app.apiKey}`)).status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("[auth] a key sees only its own organisation's data", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const { key: otherKey } = await createOtherOrganisation(app);
    const asOther = (path: string, init: RequestInit = {}) =>
      app.app.request(path, {
        ...init,
        headers: { authorization: `Bearer ${otherKey.secret}`, "content-type": "application/json" },
      });
    await expectError(
      await asOther(`/api/v1/qr/${offer.qrId}`),
      404,
      "not_found",
      "resource_not_found",
      `No offer with id '${offer.qrId}'.`,
    );
    await expectError(
      await asOther("/api/v1/payments", {
        method: "POST",
        body: JSON.stringify({ qrId: offer.qrId }),
      }),
      404,
      "not_found",
      "resource_not_found",
    );
    const list = await (await asOther("/api/v1/qr")).json();
    assert.deepEqual(list, { data: [], hasMore: false });
    const events = await (await asOther("/api/v1/events")).json();
    assert.deepEqual(events, { data: [], hasMore: false });
  } finally {
    await app.close();
  }
});
