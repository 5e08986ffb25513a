import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../lib/config.ts";
import { runCli } from "./support/processes.ts";

Deno.test("[config e-mail] SMTP_URL and MAIL_FROM are read into the server, TLS and sender", () => {
  const starttls = loadConfig({
    SMTP_URL: "smtp://shop%40example.pl:p%40ss:w0rd@mail.example.pl:587?requireTLS=true",
    MAIL_FROM: '"Kawiarnia Ziarno" <sklep@ziarno.example.pl>',
  });
  assert.deepEqual(starttls.smtp, {
    host: "mail.example.pl",
    port: 587,
    secure: false,
    requireTLS: true,
    auth: { user: "shop@example.pl", pass: "p@ss:w0rd" },
  });
  assert.deepEqual(starttls.mailFrom, {
    name: "Kawiarnia Ziarno",
    address: "sklep@ziarno.example.pl",
  });
  const tls = loadConfig({ SMTP_URL: "smtps://relay.example.pl", MAIL_FROM: "shop@example.pl" });
  assert.deepEqual(tls.smtp, {
    host: "relay.example.pl",
    port: 465,
    secure: true,
    requireTLS: false,
    auth: null,
  });
  assert.deepEqual(tls.mailFrom, { name: null, address: "shop@example.pl" });
  const none = loadConfig({ PUBLIC_URL: "https://pay.shop.example" });
  assert.equal(none.smtp, null);
  assert.deepEqual(none.mailFrom, { name: "Paystead", address: "no-reply@pay.shop.example" });
  assert.deepEqual(none.emailRetryScheduleMs, [
    0,
    5_000,
    30_000,
    120_000,
    300_000,
    900_000,
    3_600_000,
  ]);
  assert.deepEqual(
    loadConfig({ PAYSTEAD_ENV: "production", EMAIL_RETRY_SCHEDULE: "0,2s" }).emailRetryScheduleMs,
    [0, 2_000],
  );
});

Deno.test("[config e-mail] a bad value is one line that names it and never prints the password", () => {
  const refused = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.message;
    }
    throw new Error("accepted");
  };
  const smtpHelp = "must be smtp://user:password@host:587 (STARTTLS; add ?requireTLS=true to " +
    "insist on it) or smtps://user:password@host:465";
  for (
    const url of [
      "http://user:secret@mail.example.pl",
      "smtp://user:secret@mail.example.pl:587?tls=yes",
      "smtp://user:secret@mail.example.pl:587?requireTLS=1",
      "smtp://user:secret@mail.example.pl:587/inbox",
      "mail.example.pl:587",
    ]
  ) {
    assert.equal(
      refused({ SMTP_URL: url, MAIL_FROM: "shop@example.pl" }),
      `Invalid configuration: SMTP_URL ${smtpHelp}.`,
    );
  }
  assert.equal(
    refused({ SMTP_URL: "smtp://mail.example.pl" }),
    "Invalid configuration: MAIL_FROM is required with SMTP_URL (the sender customers see, such " +
      "as Shop <shop@example.pl>).",
  );
  for (const from of ["Shop", "Shop <shop@example>", "Sh<o>p <shop@example.pl>", "a@b@c.pl"]) {
    assert.equal(
      refused({ MAIL_FROM: from }),
      "Invalid configuration: MAIL_FROM must be an address such as Shop <shop@example.pl> or " +
        `shop@example.pl (got ${JSON.stringify(from)}).`,
    );
  }
});

Deno.test("[config e-mail] serve refuses a bad SMTP_URL with that one line, before opening anything", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-smtp-config-" });
  try {
    const result = await runCli(["serve", "--data-dir", dataDir], {
      SMTP_URL: "smtp://user:hunter2@mail.example.pl:587?tls=yes",
      MAIL_FROM: "shop@example.pl",
    });
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      "Invalid configuration: SMTP_URL must be smtp://user:password@host:587 (STARTTLS; add " +
        "?requireTLS=true to insist on it) or smtps://user:password@host:465.",
    );
    assert.deepEqual([...Deno.readDirSync(dataDir)], []);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
