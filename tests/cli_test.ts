import assert from "node:assert/strict";
import { openStore } from "../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import { hashApiKey } from "../lib/api_keys.ts";
import { runCli } from "./support/processes.ts";

Deno.test("[cli] a bad setting stops the command with one line naming it", async () => {
  const result = await runCli(["migrate"], { PORT: "abc" });
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    'Invalid configuration: PORT must be a whole number between 1 and 65535 (got "abc").',
  );
  assert.equal(result.stdout, "");
});

Deno.test("[cli] usage mistakes print the usage and exit 2", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-cli-usage-" });
  const env = { DATA_DIR: dataDir };
  const unknown = await runCli(["refund", "everything"], env);
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /^Unknown command 'refund everything'\.\n\nUsage: paystead <command> \[options\]/,
  );
  const missing = await runCli(["org", "create", "--name", "Shop", "--plan", "PRO"], env);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^--slug is required\./);
  const flag = await runCli(["migrate", "--colour", "red"], env);
  assert.equal(flag.code, 2);
  assert.equal(
    flag.stderr,
    "Unknown option '--colour'. Run with --help for the commands and options.",
  );
  await Deno.remove(dataDir, { recursive: true });
});

Deno.test("[cli] organisations, users, keys, plans and backups from the command line", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-cli-" });
  const env = { DATA_DIR: dataDir };
  try {
    const migrated = await runCli(["migrate"], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.equal(
      migrated.stdout,
      `Migrated file:${dataDir}/accounts.db and file:${dataDir}/sandbox.db.`,
    );

    const org = await runCli([
      "org",
      "create",
      "--slug",
      "shop",
      "--name",
      "The Shop",
      "--plan",
      "BASIC",
    ], env);
    assert.equal(org.code, 0, org.stderr);
    assert.equal(org.stdout, "Created organisation 'shop' (The Shop) on plan BASIC.");
    const again = await runCli(
      ["org", "create", "--slug", "shop", "--name", "Again", "--plan", "PRO"],
      env,
    );
    assert.equal(again.code, 1);
    assert.equal(again.stderr, "Error: An organisation with slug 'shop' already exists.");
    const badPlan = await runCli(
      ["org", "create", "--slug", "x", "--name", "X", "--plan", "GOLD"],
      env,
    );
    assert.equal(badPlan.code, 1);
    assert.equal(badPlan.stderr, "Error: plan must be one of FREE, BASIC, PRO, ENTERPRISE.");

    const plan = await runCli(["org", "set-plan", "--slug", "shop", "--plan", "ENTERPRISE"], env);
    assert.equal(plan.stdout, "Organisation 'shop' is now on plan ENTERPRISE.");

    const user = await runCli([
      "user",
      "create",
      "--org",
      "shop",
      "--email",
      "Owner@Shop.example",
      "--role",
      "OWNER",
    ], env);
    assert.equal(user.code, 0, user.stderr);
    const [created, password] = user.stdout.split("\n");
    assert.equal(created, "Created OWNER owner@shop.example in 'shop'.");
    assert.match(
      password,
      /^One-time password \(choose a new one at first sign-in\): [0-9A-Za-z]{20}$/,
    );
    const badRole = await runCli([
      "user",
      "create",
      "--org",
      "shop",
      "--email",
      "a@b.co",
      "--role",
      "KING",
    ], env);
    assert.equal(badRole.stderr, "Error: role must be one of OWNER, ADMIN, MEMBER.");

    const key = await runCli(["key", "create", "--org", "shop", "--env", "production"], env);
    assert.equal(key.code, 0, key.stderr);
    const secret = /Secret \(shown once, store it now\): (sk_production_[0-9A-Za-z]{32})$/.exec(
      key.stdout,
    )?.[1];
    assert.ok(secret, key.stdout);
    const production = await openStore<EnvironmentSchema>(`file:${dataDir}/production.db`);
    const accounts = await openStore<AccountsSchema>(`file:${dataDir}/accounts.db`);
    try {
      const row = await production.db.selectFrom("api_keys").selectAll().executeTakeFirstOrThrow();
      assert.equal(row.secret_hash, hashApiKey(secret));
      const shop = await accounts.db.selectFrom("organisations").selectAll()
        .executeTakeFirstOrThrow();
      assert.equal(row.org_id, shop.id);
      assert.equal(shop.plan, "ENTERPRISE");
      const owner = await accounts.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
      assert.equal(owner.password_change_required, 1);
      assert.ok(!owner.password_hash.includes(password.split(": ")[1]));
    } finally {
      await production.close();
      await accounts.close();
    }
    const noOrg = await runCli(["key", "create", "--org", "nope"], env);
    assert.equal(noOrg.stderr, "Error: No organisation with slug 'nope'.");

    const backup = await runCli(
      ["backup", "--out", `${dataDir}/copy.db`, "--database", "accounts"],
      env,
    );
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal(
      backup.stdout,
      `Wrote a consistent copy of file:${dataDir}/accounts.db to ${dataDir}/copy.db.`,
    );
    const copy = await openStore<AccountsSchema>(`file:${dataDir}/copy.db`);
    try {
      const slugs = await copy.db.selectFrom("organisations").select("slug").execute();
      assert.deepEqual(slugs, [{ slug: "shop" }]);
    } finally {
      await copy.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
