import assert from "node:assert/strict";
import { openStore } from "../db/client.ts";
import type { AccountsSchema } from "../db/schema.ts";
import { loadConfig } from "../lib/config.ts";
import { verifyPassword } from "../lib/passwords.ts";
import { freePort, paysteadCommand, runCli } from "./support/processes.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();

/** Runs `serve` to its end (it fails at start); its exit code and what it printed. */
async function serveOnce(dataDir: string, port: number) {
  const output = await paysteadCommand(dataDir, {}, port).output();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("[start] a port in use is one line, and the demo organisation is not created", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-port-taken-" });
  const port = freePort();
  const taken = Deno.listen({ hostname: "127.0.0.1", port });
  try {
    const result = await serveOnce(dataDir, port);
    assert.deepEqual(result, {
      code: 1,
      stdout: "",
      stderr:
        `Error: Cannot listen on 127.0.0.1:${port}: the port is already in use (another Paystead or another program listens there). Stop it, or choose a free port with PORT (--port).`,
    });
    // A one-time password nobody saw would lock the demo owner out: there is none.
    const accounts = await openStore<AccountsSchema>(`file:${dataDir}/accounts.db`);
    try {
      assert.deepEqual(await accounts.db.selectFrom("organisations").select("slug").execute(), []);
      assert.deepEqual(await accounts.db.selectFrom("users").select("email").execute(), []);
    } finally {
      await accounts.close();
    }
  } finally {
    taken.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[start] a DATA_DIR under a file, or a missing one for backup, is one line", async () => {
  const file = await Deno.makeTempFile({ prefix: "paystead-data-under-file-" });
  try {
    const served = await serveOnce(`${file}/data`, freePort());
    assert.deepEqual(served, {
      code: 1,
      stdout: "",
      stderr: `Cannot use the database ${file}/data/sandbox.db: Not a directory (os error 20): ` +
        `mkdir '${file}/data'. Make the folder ${file}/data exist and be writable by the user ` +
        "running Paystead, or point DATA_DIR (--data-dir) at one that is.",
    });
    const missing = `${file}-missing`;
    const backup = await runCli(["backup", "--out", `${file}.copy`], { DATA_DIR: missing });
    assert.deepEqual(backup, {
      code: 1,
      stdout: "",
      stderr:
        `Error: The backup failed: There is no database at ${missing}/sandbox.db; check --data-dir or DATA_DIR.`,
    });
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("[start] a variable a typo away from one of ours names the one it meant", async () => {
  const result = await runCli(["version"], { BACKUP_INTREVAL: "6h" });
  assert.deepEqual(result, {
    code: 2,
    stdout: "",
    stderr:
      "Invalid configuration: BACKUP_INTREVAL is not a Paystead setting; did you mean BACKUP_INTERVAL?",
  });
  for (
    const [name, meant] of [
      ["PUBLIC_ULR", "PUBLIC_URL"],
      ["PAYU_CLIENT_SECERT", "PAYU_CLIENT_SECRET"],
      ["DATADIR", "DATA_DIR"],
      ["PAYSTEAD_API_KYE", "PAYSTEAD_API_KEY"],
    ]
  ) {
    assert.throws(() => loadConfig({ [name]: "x" }), {
      name: "ConfigError",
      message: `Invalid configuration: ${name} is not a Paystead setting; did you mean ${meant}?`,
    });
  }
  // Other programs' variables are not ours, even short ones near ours (PORT, HOST).
  const others = Object.fromEntries(
    ["HOST", "PATH", "LOGNAME", "HOME", "PAYSTEAD", "BACKUP_S3_BUCKET_POLICY"].map((name) => [
      name,
      "x",
    ]),
  );
  assert.equal(loadConfig(others).environment, "sandbox");
});

Deno.test("[start] user reset-password prints a new one-time password and ends the old one", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-reset-password-" });
  const env = { DATA_DIR: dataDir };
  try {
    assert.equal(
      (await runCli(["org", "create", "--slug", "shop", "--name", "Shop", "--plan", "PRO"], env))
        .code,
      0,
    );
    const created = await runCli(
      ["user", "create", "--org", "shop", "--email", "Owner@Shop.test", "--role", "OWNER"],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const first = /One-time password .*: (\S+)$/.exec(created.stdout)![1];
    // Signed in somewhere: that session ends with the reset.
    const before = await openStore<AccountsSchema>(`file:${dataDir}/accounts.db`);
    try {
      await before.write((trx) =>
        trx.insertInto("panel_sessions").values({
          token_hash: "a-session",
          user_id: 1,
          org_id: 1,
          created_at: 0,
          last_seen_at: 0,
          expires_at: 4_000_000_000_000,
        }).execute()
      );
    } finally {
      await before.close();
    }

    const reset = await runCli(
      ["user", "reset-password", "--org", "shop", "--email", "owner@shop.TEST"],
      env,
    );
    assert.equal(reset.code, 0, reset.stderr);
    const lines = reset.stdout.split("\n");
    assert.equal(lines[0], "Reset the password of OWNER owner@shop.test in 'shop'.");
    const match = /^One-time password \(choose a new one at first sign-in\): (\S{20})$/.exec(
      lines[1],
    );
    assert.ok(match, lines[1]);
    const accounts = await openStore<AccountsSchema>(`file:${dataDir}/accounts.db`);
    try {
      const user = await accounts.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
      assert.equal(await verifyPassword(match[1], user.password_hash), true);
      assert.equal(await verifyPassword(first, user.password_hash), false);
      assert.equal(user.password_change_required, 1);
      assert.deepEqual(await accounts.db.selectFrom("panel_sessions").select("id").execute(), []);
    } finally {
      await accounts.close();
    }

    const stranger = await runCli(
      ["user", "reset-password", "--org", "shop", "--email", "nobody@shop.test"],
      env,
    );
    assert.deepEqual(stranger, {
      code: 1,
      stdout: "",
      stderr: "Error: No member of 'shop' has the e-mail nobody@shop.test.",
    });
    const missing = await runCli(["user", "reset-password", "--org", "shop"], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^--email is required\.\n/);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
