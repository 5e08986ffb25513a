import assert from "node:assert/strict";
import { updateApiKeyValidity } from "../db/api_keys.ts";
import { setOrganisationPlan } from "../lib/accounts/organisations.ts";
import { ApiKeyAuthenticator, createApiKey } from "../lib/api_keys.ts";
import { expectError, makeTestApp, type TestApp } from "./support/helpers.ts";
import { readCounted } from "./support/read_counted.ts";
import { pageText, signedInApp } from "./support/panel_helpers.ts";

const HOUR = 3_600_000;
/** The authenticator trusts a verified key this long (lib/api_keys.ts). */
const KEY_CACHE_MS = 5_000;

function get(t: TestApp, secret: string): Promise<Response> {
  return Promise.resolve(
    t.app.request("/api/v1/qr", { headers: { authorization: `Bearer ${secret}` } }),
  );
}

Deno.test("[api keys] a revocation, expiry or plan change by another instance applies once the cache lapses", async (s) => {
  const t = await makeTestApp();
  try {
    for (
      const [change, code, message] of [
        ["revoked_at", "api_key_revoked", "has been revoked"],
        ["expires_at", "api_key_expired", "has expired"],
      ] as const
    ) {
      await s.step(change, async () => {
        const key = await createApiKey(t.store, {
          orgId: t.orgId,
          name: change,
          environment: "sandbox",
          now: t.clock.now(),
        });
        assert.equal((await get(t, key.secret)).status, 200, "verified and cached here");
        // Another instance writes the change: this process's cache is not told.
        await t.store.write((trx) =>
          updateApiKeyValidity(trx, key.record.id, { [change]: t.clock.now() })
        );
        t.clock.advance(KEY_CACHE_MS);
        await expectError(
          await get(t, key.secret),
          401,
          "authentication",
          code,
          `The API key sk_sandbox_...${key.secret.slice(-4)} ${message}.`,
        );
      });
    }
    await s.step("a plan lowered to FREE", async () => {
      assert.equal((await get(t, t.apiKey)).status, 200, "verified and cached here");
      await setOrganisationPlan(t.accounts, "acme", "FREE", t.clock.now());
      t.clock.advance(KEY_CACHE_MS);
      await expectError(
        await get(t, t.apiKey),
        403,
        "permission",
        "plan_required",
        "API access needs plan BASIC or higher; the organisation 'acme' is on FREE.",
      );
    });
  } finally {
    await t.close();
  }
});

Deno.test("[api keys] requests arriving while a key is read wait for that read, and a key not found is not kept", async () => {
  const t = await makeTestApp();
  try {
    const read: string[] = [];
    const authenticator = new ApiKeyAuthenticator({
      ...t.services,
      store: readCounted(t.store, read),
      accounts: readCounted(t.accounts, read),
    });
    const together = (secret: string) =>
      Promise.allSettled(
        Array.from({ length: 5 }, () => authenticator.authenticate(`Bearer ${secret}`)),
      );
    const first = await together(t.apiKey);
    assert.deepEqual(first.map((result) => result.status), Array(5).fill("fulfilled"));
    assert.deepEqual(read, ["api_keys", "organisations"], "one read for the five");
    t.clock.advance(KEY_CACHE_MS);
    await together(t.apiKey);
    assert.deepEqual(read.length, 4, "read again once the cache lapsed, once");

    read.length = 0;
    const unknown = `sk_sandbox_${"0".repeat(32)}`;
    const refused = await together(unknown);
    assert.deepEqual(refused.map((result) => result.status), Array(5).fill("rejected"));
    assert.deepEqual(read, ["api_keys"], "one read for the five");
    await together(unknown);
    assert.deepEqual(read, ["api_keys", "api_keys"], "a key not found is read again");
  } finally {
    await t.close();
  }
});

Deno.test("[api keys] rolling again with a longer overlap never extends the old key", async () => {
  const { t, agent } = await signedInApp();
  try {
    const list = await (await agent.get("/panel/developers/api-keys")).text();
    const id = /\/panel\/developers\/api-keys\/(key_\w+)\/roll/.exec(list)![1];
    const first = await agent.post(`/panel/developers/api-keys/${id}/roll`, { expiresIn: "1h" });
    assert.equal(first.status, 201);
    assert.match(pageText(await first.text()), /The old key works until 2026-11-21 11:00 UTC ?\./);

    const second = await agent.post(`/panel/developers/api-keys/${id}/roll`, { expiresIn: "7d" });
    assert.equal(second.status, 201);
    assert.match(
      pageText(await second.text()),
      /The old key works until 2026-11-21 11:00 UTC ?\./,
      "the earlier end stands",
    );
    const row = await t.store.db.selectFrom("api_keys").select("expires_at")
      .where("public_id", "=", id).executeTakeFirstOrThrow();
    assert.equal(row.expires_at, t.clock.now() + HOUR);

    t.clock.advance(HOUR);
    await expectError(await get(t, t.apiKey), 401, "authentication", "api_key_expired");
  } finally {
    await t.close();
  }
});
