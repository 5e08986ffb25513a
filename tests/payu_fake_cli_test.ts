import assert from "node:assert/strict";
import { runCli } from "./support/processes.ts";
import { startFakePayuProcess } from "./support/payu_fake_process.ts";

Deno.test("[fake payu cli] prints the PAYU_* variables and serves PayU's paths until SIGTERM", async () => {
  const fake = await startFakePayuProcess([
    "--notify-delay",
    "250ms",
    "--client-secret",
    "s3cret",
    "--signature-algorithm",
    "sha-256",
    "--drop",
    "--pay-method",
    "m=DISABLED",
    "--pay-method",
    "c=ENABLED:100-5000",
  ]);
  try {
    assert.deepEqual(fake.env, {
      PAYMENT_PROVIDER: "payu",
      PAYU_API_URL: fake.url,
      PAYU_POS_ID: "300746",
      PAYU_CLIENT_ID: "300746",
      PAYU_CLIENT_SECRET: "s3cret",
      PAYU_SECOND_KEY: "b6ca15b0d1020e8094d9b5f8d163db54",
    });
    const switches = await fake.control("GET", "/switches");
    assert.equal(switches.body.notifyDelayMs, 250);
    assert.equal(switches.body.signatureAlgorithm, "SHA-256");
    assert.equal(switches.body.dropNotifications, true);
    assert.deepEqual(switches.body.payMethods, {
      m: { status: "DISABLED" },
      c: { status: "ENABLED", minAmount: 100, maxAmount: 5000 },
    });
    const token = await fetch(`${fake.url}/pl/standard/user/oauth/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=300746&client_secret=s3cret",
    });
    assert.equal(token.status, 200);
    assert.equal((await token.json()).expires_in, 43199);
  } finally {
    const status = await fake.stop("SIGTERM");
    assert.equal(status.code, 0);
  }
});

Deno.test("[fake payu cli] a bad flag exits 2 with the usage", async () => {
  for (
    const args of [
      ["--notify-delay", "soon"],
      ["--port", "x"],
      ["--signature-algorithm", "SHA-3"],
      ["--pay-method", "zz=DISABLED"],
      ["--nope"],
    ]
  ) {
    const result = await runCli(["fake-payu", ...args]);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /Usage: paystead fake-payu/);
  }
});
