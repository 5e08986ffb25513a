import assert from "node:assert/strict";
import { runCli } from "./support/processes.ts";
import { startFakeP24Process } from "./support/p24_fake_process.ts";
import { registerSign } from "./support/p24_fake_helpers.ts";

Deno.test("[fake p24 cli] prints the P24_* variables and serves P24's paths until SIGTERM", async () => {
  const fake = await startFakeP24Process([
    "--merchant-id",
    "123456",
    "--crc",
    "crc-z-panelu",
    "--notify-delay",
    "250ms",
    "--blik-timeout",
    "2m",
    "--reorder",
    "--method",
    "25=off",
    "--method",
    "218=on:100-5000",
    "--fee-bp",
    "150",
  ]);
  try {
    assert.deepEqual(fake.env, {
      PAYMENT_PROVIDER: "przelewy24",
      P24_API_URL: fake.url,
      P24_MERCHANT_ID: "123456",
      P24_POS_ID: "123456",
      P24_CRC: "crc-z-panelu",
      P24_API_KEY: "a1b2c3d4e5f60718293a4b5c6d7e8f90",
    });
    const switches = await fake.control("GET", "/switches");
    assert.equal(switches.body.notifyDelayMs, 250);
    assert.equal(switches.body.blikConfirmTimeoutMs, 120_000);
    assert.equal(switches.body.reorderNotifications, true);
    assert.equal(switches.body.feeBasisPoints, 150);
    assert.deepEqual(switches.body.methods, {
      "25": { status: false },
      "218": { status: true, minAmount: 100, maxAmount: 5000 },
    });
    const auth = `Basic ${btoa(`123456:${fake.env.P24_API_KEY}`)}`;
    const body = {
      merchantId: 123456,
      posId: 123456,
      sessionId: "att_cli",
      amount: 1250,
      currency: "PLN",
      description: "Coffee",
      email: "buyer@example.com",
      country: "PL",
      language: "pl",
      urlReturn: "https://shop.test/return",
      sign: await registerSign("att_cli", 123456, 1250, "PLN", "crc-z-panelu"),
    };
    const registered = await fetch(`${fake.url}/api/v1/transaction/register`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.equal(registered.status, 200);
    const { data } = await registered.json();
    const page = await fetch(`${fake.url}/trnRequest/${data.token}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html lang="pl">/);
  } finally {
    const status = await fake.stop("SIGTERM");
    assert.equal(status.code, 0);
  }
});

Deno.test("[fake p24 cli] a bad flag exits 2 with the usage; --help exits 0", async () => {
  for (
    const args of [
      ["--merchant-id", "abc"],
      ["--api-error", "404"],
      ["--hang", "sometimes"],
      ["--method", "999=off"],
      ["--nope"],
    ]
  ) {
    const result = await runCli(["fake-p24", ...args]);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /Usage: paystead fake-p24/);
  }
  const help = await runCli(["fake-p24", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /777xxx pays; 500500 declined/);
  const unknown = await runCli(["fake-stripe"]);
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /Unknown command 'fake-stripe'\. The fakes are fake-payu, fake-p24\./,
  );
});
