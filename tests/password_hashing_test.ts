import assert from "node:assert/strict";
import { randomBytes, scryptSync } from "node:crypto";
import { createUser } from "../lib/accounts/organisations.ts";
import { hashPassword, scryptPasswords, verifyPassword } from "../lib/passwords.ts";
import { makeTestApp } from "./support/helpers.ts";
import { PanelAgent } from "./support/panel_helpers.ts";

/** A hash as the earlier version made them: scrypt at N=2^14. */
function oldHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 32, { N: 16384, r: 8, p: 1 });
  return ["scrypt", 16384, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
}

Deno.test("[passwords] new hashes record scrypt N=2^17, r=8, p=1", async () => {
  const hash = await hashPassword("lantern meadow copper whistle");
  assert.match(hash, /^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
  assert.equal(await verifyPassword("lantern meadow copper whistle", hash), true);
  assert.equal(await verifyPassword("lantern meadow copper whistles", hash), false);
  assert.equal(scryptPasswords.needsRehash(hash), false);
  const old = oldHash("lantern meadow copper whistle");
  assert.equal(await verifyPassword("lantern meadow copper whistle", old), true);
  assert.equal(scryptPasswords.needsRehash(old), true);
  assert.equal(await verifyPassword("x", "scrypt$1099511627776$8$1$AAAA$AAAA"), false);
  assert.equal(await verifyPassword("x", "bcrypt$whatever"), false);
  // More memory than a check may take, or an N scrypt refuses: no valid hash, not a failure.
  assert.equal(await verifyPassword("x", "scrypt$1048576$8$1$AAAA$AAAA"), false);
  assert.equal(await verifyPassword("x", "scrypt$1000$8$1$AAAA$AAAA"), false);
  // A costlier hash than today's is never "upgraded" down.
  assert.equal(scryptPasswords.needsRehash(hash.replace("$131072$", "$262144$")), false);
});

Deno.test("[passwords] an older hash is upgraded at the next successful sign-in", async () => {
  const t = await makeTestApp({ passwords: scryptPasswords });
  try {
    const created = await createUser(t.accounts, {
      orgSlug: "acme",
      email: "ada@acme.test",
      role: "OWNER",
    }, t.clock.now());
    const password = created.oneTimePassword;
    const before = oldHash(password);
    await t.accounts.write((trx) =>
      trx.updateTable("users").set({ password_hash: before }).where("id", "=", created.user.id)
        .execute()
    );
    const stored = () =>
      t.accounts.db.selectFrom("users").select(["password_hash", "password_change_required"])
        .where("id", "=", created.user.id).executeTakeFirstOrThrow();

    const wrong = await new PanelAgent(t).post("/panel/sign-in", {
      email: "ada@acme.test",
      password: "not it at all",
    });
    assert.equal(wrong.status, 401);
    assert.equal((await stored()).password_hash, before, "a wrong password changes nothing");

    await new PanelAgent(t).signIn("ada@acme.test", password);
    const after = await stored();
    assert.match(after.password_hash, /^scrypt\$131072\$8\$1\$/);
    assert.notEqual(after.password_hash, before);
    assert.equal(after.password_change_required, 1, "the one-time password still must change");
    assert.equal(await verifyPassword(password, after.password_hash), true);
    await new PanelAgent(t).signIn("ada@acme.test", password);
  } finally {
    await t.close();
  }
});
