import assert from "node:assert/strict";
import { freePort, runCli, startPaystead } from "./support/processes.ts";

Deno.test("[doctor] prints one line per problem with its fix and exits 1", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-doctor-" });
  try {
    const env = { DATA_DIR: dataDir, PAYSTEAD_ENV: "production" };
    assert.equal((await runCli(["migrate"], env)).code, 0);
    // Every command makes them private; opened up afterwards, as an operator's chmod would.
    await Deno.chmod(dataDir, 0o755);
    await Deno.chmod(`${dataDir}/production.db`, 0o644);
    await Deno.chmod(`${dataDir}/accounts.db`, 0o600);
    const port = freePort();
    const result = await runCli(["doctor"], {
      ...env,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      BACKUP_INTERVAL: "6h",
    });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      [
        "Paystead listens on 0.0.0.0 with no proxy in front: slow connections can exhaust it. Fix: Set LISTEN_HOST=127.0.0.1 behind Caddy (docs/deploy/Caddyfile), or name your proxy in TRUSTED_PROXIES.",
        `PUBLIC_URL is http://127.0.0.1:${port}: production must be reached over https. Fix: Set PUBLIC_URL to the https:// address your TLS proxy (Caddy) serves.`,
        `PUBLIC_URL is http://127.0.0.1:${port}: customers and PayU cannot reach a loopback address. Fix: Set PUBLIC_URL to the public host name of this environment.`,
        `The data folder ${dataDir} is open to others (mode 755). Fix: chmod 700 ${dataDir}`,
        `The production database ${dataDir}/production.db is readable by others (mode 644). Fix: chmod 600 ${dataDir}/production.db`,
        `There is no scheduled backup in ${dataDir}/backups yet. Fix: Check the server's log for \`scheduled backup failed\` (a new server writes its first at start).`,
        `http://127.0.0.1:${port}/healthz does not answer (client error (Connect): tcp connect error: Connection refused (os error 111)). Fix: Start the server, and check DNS and the TLS proxy for PUBLIC_URL's host.`,
        "Production has no payment provider (PAYMENT_PROVIDER is not payu). Fix: Set PAYMENT_PROVIDER=payu and the PAYU_* credentials from PayU's merchant panel.",
        "8 problems found.",
      ].join("\n"),
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[doctor] a serving sandbox with PayU credentials PayU accepts has no problems", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-doctor-" });
  let accept = false;
  const payu = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const form = new URLSearchParams(await request.text());
    const ok = accept && form.get("client_id") === "145227" && form.get("client_secret") === "s3";
    return ok
      ? Response.json({ access_token: "t", token_type: "bearer", expires_in: 43199 })
      : Response.json({ error: "invalid_client" }, { status: 401 });
  });
  const server = await startPaystead(dataDir);
  try {
    for (const file of ["accounts.db", "sandbox.db"]) await Deno.chmod(`${dataDir}/${file}`, 0o600);
    const env = {
      DATA_DIR: dataDir,
      LISTEN_HOST: "127.0.0.1",
      PUBLIC_URL: server.url,
      PAYMENT_PROVIDER: "payu",
      PAYU_API_URL: `http://127.0.0.1:${payu.addr.port}`,
      PAYU_POS_ID: "145227",
      PAYU_CLIENT_ID: "145227",
      PAYU_CLIENT_SECRET: "s3",
      PAYU_SECOND_KEY: "k",
    };
    const refused = await runCli(["doctor"], env);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `PayU at http://127.0.0.1:${payu.addr.port} refused the credentials (HTTP 401). Fix: Check PAYU_CLIENT_ID and PAYU_CLIENT_SECRET, and that PAYU_API_URL is PayU's production or sandbox host as they belong to.\n1 problem found.`,
    );
    accept = true;
    const healthy = await runCli(["doctor"], env);
    assert.equal(healthy.code, 0, healthy.stderr);
    assert.equal(
      healthy.stdout,
      "No problems found: configuration, data folder, databases, disk, backups, public URL and provider.",
    );
  } finally {
    await server.stop();
    await payu.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[doctor] production on PayU's sandbox host or its public POS says no real money moves", async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-doctor-" });
  const payu = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => Response.json({ access_token: "t", token_type: "bearer", expires_in: 43199 }),
  );
  try {
    const env = {
      DATA_DIR: dataDir,
      PAYSTEAD_ENV: "production",
      PAYMENT_PROVIDER: "payu",
      PAYU_API_URL: `http://127.0.0.1:${payu.addr.port}`,
      PAYU_CLIENT_ID: "c",
      PAYU_CLIENT_SECRET: "s",
      PAYU_SECOND_KEY: "k",
    };
    const cases: [string, string | null][] = [
      [
        "300746",
        "Production takes no real money: PAYU_POS_ID 300746 is PayU's public sandbox POS. Fix: Set PAYU_API_URL=https://secure.payu.com and your production POS's PAYU_* credentials.",
      ],
      ["145227", null],
    ];
    for (const [posId, line] of cases) {
      await t.step(posId, async () => {
        const result = await runCli(["doctor"], { ...env, PAYU_POS_ID: posId });
        const lines = result.stderr.split("\n").filter((text) => text.includes("real money"));
        assert.deepEqual(lines, line === null ? [] : [line]);
      });
    }
  } finally {
    await payu.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[healthcheck] exits 0 on a ready server and 1 when nothing answers; version prints one line", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-health-" });
  const server = await startPaystead(dataDir);
  try {
    const ready = await runCli(["healthcheck", "--url", server.url]);
    assert.deepEqual(ready, { code: 0, stdout: `${server.url} is ready.`, stderr: "" });
    const local = await runCli(["healthcheck", "--port", String(server.port)]);
    assert.equal(local.stdout, `http://127.0.0.1:${server.port} is ready.`);
    // No scheme: http:// is meant, as curl reads it.
    const bare = await runCli(["healthcheck", "--url", `localhost:${server.port}`]);
    assert.deepEqual(bare, {
      code: 0,
      stdout: `http://localhost:${server.port} is ready.`,
      stderr: "",
    });
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
  const port = freePort();
  const down = await runCli(["healthcheck", "--url", `http://127.0.0.1:${port}`]);
  assert.equal(down.code, 1);
  assert.match(
    down.stderr,
    new RegExp(`^http://127\\.0\\.0\\.1:${port}/readyz did not answer \\(`),
  );
  const version = await runCli(["version"]);
  // The release sets it in deno.json alone.
  const { version: released } = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  );
  assert.match(released, /^\d+\.\d+\.\d+$/);
  assert.deepEqual(version, { code: 0, stdout: `paystead ${released} (sandbox)`, stderr: "" });
});

Deno.test("[doctor] a libSQL server that does not answer is named without its authToken", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-doctor-" });
  try {
    const port = freePort();
    const result = await runCli(["doctor"], {
      DATA_DIR: dataDir,
      PAYSTEAD_ENV: "sandbox",
      DATABASE_URL: `http://127.0.0.1:${port}?authToken=not-a-real-token`,
    });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr.split("\n").find((line) => line.startsWith("The sandbox database")),
      `The sandbox database http://127.0.0.1:${port}/ does not answer (client error (Connect): tcp connect error: Connection refused (os error 111)). Fix: Check that the libSQL server runs and the URL and its authToken are right.`,
    );
    assert.doesNotMatch(result.stderr, /not-a-real-token/);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[doctor] a default local sandbox has no problems; listening on every interface is a note", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-doctor-default-" });
  const port = freePort();
  // The defaults, spelled out where the test helper would set its own.
  const server = await startPaystead(dataDir, {
    LISTEN_HOST: "0.0.0.0",
    PUBLIC_URL: `http://localhost:${port}`,
  }, port);
  try {
    const result = await runCli(["doctor"], { DATA_DIR: dataDir, PORT: String(port) });
    assert.deepEqual(result, {
      code: 0,
      stdout: [
        "Note: This sandbox listens on 0.0.0.0: other machines on your network can reach it. Set LISTEN_HOST=127.0.0.1 to keep it to this machine.",
        "No problems found: configuration, data folder, databases, disk, backups, public URL and provider.",
      ].join("\n"),
      stderr: "",
    });
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
