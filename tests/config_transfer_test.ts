import assert from "node:assert/strict";
import { openStore } from "../db/client.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { loadConfig } from "../lib/config.ts";
import { describeItem } from "../lib/config_transfer/describe.ts";
import { exportConfig } from "../lib/config_transfer/export.ts";
import { parseConfig, serializeConfig } from "../lib/config_transfer/format.ts";
import { applyImport, planImport } from "../lib/config_transfer/import.ts";
import { orgContext } from "../lib/context.ts";
import type { ApiError } from "../lib/errors.ts";
import { makeTestApp } from "./support/helpers.ts";
import { pageText, signedInApp } from "./support/panel_helpers.ts";
import { createApp } from "../routes/app.ts";
import { silentLogger } from "../lib/log.ts";
import { closeDatabases, openDatabases } from "../server.ts";
import { runCli } from "./support/processes.ts";

/** Production runs only with a real provider: PayU's public sandbox POS (never called here). */
const PAYU = {
  PAYMENT_PROVIDER: "payu",
  PAYU_API_URL: "http://127.0.0.1:9",
  PAYU_POS_ID: "300746",
  PAYU_CLIENT_ID: "300746",
  PAYU_CLIENT_SECRET: "2ee86a66e5d97e3fadc400c9f19b065d",
  PAYU_SECOND_KEY: "b6ca15b0d1020e8094d9b5f8d163db54",
};

/** A data folder whose sandbox holds organisation 'shop' with offers, an endpoint and origins. */
async function sandboxWithConfiguration(): Promise<{ dataDir: string; key: string }> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-config-" });
  const env = { DATA_DIR: dataDir };
  assert.equal(
    (await runCli(["org", "create", "--slug", "shop", "--name", "Shop", "--plan", "PRO"], env))
      .code,
    0,
  );
  const created = await runCli(["key", "create", "--org", "shop"], env);
  const key = /(sk_sandbox_\w+)/.exec(created.stdout)![1];
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: "http://127.0.0.1:8787" });
  const databases = await openDatabases(config);
  const { app, services, webhooks } = createApp({ ...databases, config, log: silentLogger });
  const call = async (method: string, path: string, body: unknown) => {
    const response = await app.request(path, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.ok(response.status < 300, await response.clone().text());
    return await response.json();
  };
  try {
    await call("POST", "/api/v1/qr", { name: "Coffee", amount: 1250, currency: "PLN" });
    const tea = await call("POST", "/api/v1/qr", {
      name: "Tea",
      amount: 900,
      currency: "PLN",
      description: "Green",
      metadata: { sku: "T-1" },
    });
    await call("PATCH", `/api/v1/qr/${tea.qrId}`, { active: false });
    await call("POST", "/api/v1/webhook-endpoints", {
      url: "https://1.1.1.1/paystead",
      events: ["payment.*"],
      description: "Orders",
    });
    await call("PUT", "/api/v1/checkout-settings", { allowedOrigins: ["https://shop.example"] });
  } finally {
    await services.scheduler.stop();
    await webhooks.stop();
    await closeDatabases(databases);
  }
  return { dataDir, key };
}

async function productionRows(dataDir: string) {
  const store = await openStore<EnvironmentSchema>(`file:${dataDir}/production.db`);
  try {
    return {
      offers: await store.db.selectFrom("offers").select(["public_id", "name", "active", "amount"])
        .orderBy("id").execute(),
      endpoints: await store.db.selectFrom("webhook_endpoints").select(["public_id", "url"])
        .execute(),
      origins: (await store.db.selectFrom("checkout_settings").select("allowed_origins").execute())
        .map((row) => row.allowed_origins),
      mappings: Number(
        (await store.db.selectFrom("config_import_mappings").select((eb) =>
          eb.fn.countAll().as("n")
        ).executeTakeFirstOrThrow()).n,
      ),
    };
  } finally {
    await store.close();
  }
}

Deno.test("[config] export from the sandbox, import into production, and again changes nothing", async () => {
  const { dataDir } = await sandboxWithConfiguration();
  const sandbox = { DATA_DIR: dataDir };
  const production = { DATA_DIR: dataDir, PAYSTEAD_ENV: "production", ...PAYU };
  try {
    const file = `${dataDir}/shop.json`;
    const exported = await runCli(["config", "export", "--org", "shop", "--out", file], sandbox);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout, `Wrote the configuration of 'shop' in sandbox to ${file}.`);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    const content = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(Object.keys(content), [
      "format",
      "version",
      "exportedAt",
      "organisation",
      "environment",
      "offers",
      "webhookEndpoints",
      "checkout",
      "checksum",
    ]);
    assert.doesNotMatch(await Deno.readTextFile(file), /whsec_|sk_sandbox_/);
    const [coffee, tea] = content.offers;
    const endpoint = content.webhookEndpoints[0];

    assert.equal((await runCli(["migrate"], production)).code, 0);
    const dry = await runCli(
      ["config", "import", "--org", "shop", "--file", file, "--dry-run"],
      production,
    );
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(
      dry.stdout,
      [
        `File: 'shop' in sandbox, exported ${content.exportedAt}.`,
        "Import into 'shop' in production:",
        `  create offer 'Coffee' (PLN\u00a012.50) for ${coffee.qrId}`,
        `  create offer 'Tea' (PLN\u00a09.00, inactive) for ${tea.qrId}`,
        "  create webhook endpoint https://1.1.1.1/paystead (payment.*) with a new signing secret",
        "  set checkout allowed origins to https://shop.example (was none)",
        "  (0 already match.)",
        "Dry run: nothing was written.",
      ].join("\n"),
    );
    assert.deepEqual(await productionRows(dataDir), {
      offers: [],
      endpoints: [],
      origins: [],
      mappings: 0,
    });

    const applied = await runCli(["config", "import", "--org", "shop", "--file", file], production);
    assert.equal(applied.code, 0, applied.stderr);
    const rows = await productionRows(dataDir);
    assert.equal(rows.offers.length, 2);
    assert.deepEqual(rows.offers.map(({ name, active, amount }) => ({ name, active, amount })), [
      { name: "Coffee", active: 1, amount: 1250 },
      { name: "Tea", active: 0, amount: 900 },
    ]);
    assert.notEqual(rows.offers[0].public_id, coffee.qrId);
    assert.equal(rows.endpoints[0].url, "https://1.1.1.1/paystead");
    assert.deepEqual(rows.origins, ['["https://shop.example"]']);
    assert.equal(rows.mappings, 3);
    const [newCoffee, newTea] = rows.offers.map((offer) => offer.public_id);
    assert.match(
      applied.stdout,
      new RegExp(
        `\nImported: 4 changes\\.\nOffers \\(qrId there -> qrId here\\):\n {2}${coffee.qrId} -> ${newCoffee} {2}Coffee\n {2}${tea.qrId} -> ${newTea} {2}Tea\nNew webhook endpoint ${
          rows.endpoints[0].public_id
        } https://1\\.1\\.1\\.1/paystead: signing secret whsec_[A-Za-z0-9+/=]+ \\(shown once; put it in your receiver now\\)\\.$`,
      ),
    );
    assert.equal(endpoint.id.startsWith("we_"), true);

    const again = await runCli(["config", "import", "--org", "shop", "--file", file], production);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /\n {2}nothing to create or change \(4 already match\)\.\n/);
    assert.match(again.stdout, /\nNothing changed: the configuration was already imported\.\n/);
    assert.deepEqual(await productionRows(dataDir), rows);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[config] a malformed, tampered, newer or other organisation's file changes nothing", async () => {
  const { dataDir } = await sandboxWithConfiguration();
  const production = { DATA_DIR: dataDir, PAYSTEAD_ENV: "production", ...PAYU };
  try {
    const file = `${dataDir}/shop.json`;
    assert.equal(
      (await runCli(["config", "export", "--org", "shop", "--out", file], { DATA_DIR: dataDir }))
        .code,
      0,
    );
    assert.equal((await runCli(["migrate"], production)).code, 0);
    assert.equal(
      (await runCli(
        ["org", "create", "--slug", "other", "--name", "O", "--plan", "PRO"],
        production,
      ))
        .code,
      0,
    );
    const text = await Deno.readTextFile(file);
    const variants: [string, string, string][] = [
      ["not JSON", text.slice(0, 100), "it is not JSON."],
      [
        "tampered",
        text.replace('"amount": 1250', '"amount": 1'),
        "its checksum does not match its content; it was edited or damaged after export. Export it again.",
      ],
      [
        "newer",
        text.replace('"version": 1', '"version": 2'),
        "it has version 2; this Paystead reads version 1. Export it again with this version.",
      ],
      [
        "unknown field",
        text.replace('"amount": 1250', '"amount": 1250, "price": 3'),
        'offers.0: Unrecognized key: "price".',
      ],
    ];
    for (const [name, content, message] of variants) {
      const path = `${dataDir}/${name.replace(" ", "-")}.json`;
      await Deno.writeTextFile(path, content);
      const result = await runCli(
        ["config", "import", "--org", "shop", "--file", path],
        production,
      );
      assert.equal(result.code, 1, name);
      assert.equal(
        result.stderr,
        `Error: This is not a usable Paystead configuration file: ${message}`,
        name,
      );
    }
    const other = await runCli(["config", "import", "--org", "other", "--file", file], production);
    assert.equal(other.code, 1);
    assert.equal(
      other.stderr,
      "Error: This file holds the configuration of 'shop', not 'other'; import it there, or allow another organisation's file explicitly.",
    );
    // Production's rules apply: the plan marks the http:// webhook URL as refused, with why, and
    // the import writes nothing unless told to leave the refused item out.
    const body = await parseConfig(text);
    body.webhookEndpoints[0].url = "http://1.1.1.1/paystead";
    const insecure = `${dataDir}/insecure.json`;
    await Deno.writeTextFile(insecure, await serializeConfig(body));
    const refused = await runCli(
      ["config", "import", "--org", "shop", "--file", insecure],
      production,
    );
    assert.equal(refused.code, 1);
    assert.match(
      refused.stdout,
      /\n {2}REFUSED: create webhook endpoint http:\/\/1\.1\.1\.1\/paystead \(payment\.\*\) with a new signing secret\n {4}\(production refuses it: 'url': .*https/,
    );
    assert.equal(
      refused.stderr,
      "Error: 1 of the changes would be refused in production (marked REFUSED above); nothing was written. Fix them in the file, or pass --skip-refused to import the rest.",
    );
    assert.deepEqual(await productionRows(dataDir), {
      offers: [],
      endpoints: [],
      origins: [],
      mappings: 0,
    });
    const allowed = await runCli(
      ["config", "import", "--org", "other", "--file", file, "--allow-other-org"],
      production,
    );
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal((await productionRows(dataDir)).offers.length, 2);
    // Told to, the import takes everything else and names what it left out.
    const skipped = await runCli(
      ["config", "import", "--org", "shop", "--file", insecure, "--skip-refused"],
      production,
    );
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.match(
      skipped.stdout,
      /\nLeft out: create webhook endpoint http:\/\/1\.1\.1\.1\/paystead \(payment\.\*\) with a new signing secret\n/,
    );
    const rows = await productionRows(dataDir);
    assert.equal(rows.offers.length, 4);
    assert.equal(rows.endpoints.length, 1);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[config] a later export updates what an import made; a new price is refused whole", async () => {
  const sandbox = await makeTestApp({ plan: "PRO" });
  const production = await makeTestApp({ plan: "PRO", environment: "production" });
  try {
    const created = await sandbox.request("POST", "/api/v1/qr", {
      name: "Coffee",
      amount: 1250,
      currency: "PLN",
    });
    const coffee = await created.json();
    const exportFrom = async () =>
      await exportConfig(orgContext(sandbox.services, sandbox.orgId), "acme");
    const options = { orgSlug: "acme", allowOtherOrg: false };
    const target = orgContext(production.services, production.orgId);
    const first = await applyImport(target, await exportFrom(), options);
    const imported = first.offers[0].targetId;

    const renamed = await sandbox.request("PATCH", `/api/v1/qr/${coffee.qrId}`, {
      name: "Coffee beans",
      active: false,
    });
    assert.equal(renamed.status, 200);
    const plan = await planImport(target, await exportFrom(), options);
    assert.deepEqual(plan.items.map((item) => describeItem(item)), [
      `change offer 'Coffee beans' ${imported} (from ${coffee.qrId}): name, active`,
    ]);
    await applyImport(target, await exportFrom(), options);
    const offer = await (await production.request("GET", `/api/v1/qr/${imported}`)).json();
    assert.equal(offer.name, "Coffee beans");
    assert.equal(offer.active, false);
    assert.equal((await planImport(target, await exportFrom(), options)).items.length, 0);

    const file = await exportFrom();
    file.offers[0].amount = 1500;
    file.offers.push({ ...file.offers[0], qrId: "qr_newNewNewNewNewNewNewNew1", amount: 700 });
    await assert.rejects(
      applyImport(target, file, options),
      (error: ApiError) => {
        assert.equal(error.code, "state_conflict");
        assert.equal(
          error.message,
          `Offer 'Coffee beans' (${coffee.qrId}) was imported as ${imported} with another price or billing period; prices never change, so create a new offer in the source environment and export again.`,
        );
        return true;
      },
    );
    // Nothing of the refused file was written, not even the new offer listed after it.
    const list = await (await production.request("GET", "/api/v1/qr")).json();
    assert.equal(list.data.length, 1);

    // Production renews by pay link (PayU cannot charge renewals): a recurring offer imports.
    const monthly = await sandbox.request("POST", "/api/v1/qr", {
      name: "Monthly box",
      amount: 4000,
      currency: "PLN",
      recurring: { interval: "MONTH" },
    });
    assert.equal(monthly.status, 201);
    await applyImport(target, await exportFrom(), options);
    const after = await (await production.request("GET", "/api/v1/qr")).json();
    assert.deepEqual(
      after.data.map((
        offer: { name: string; recurring: unknown },
      ) => [offer.name, offer.recurring]),
      [["Monthly box", { interval: "MONTH", intervalCount: 1 }], ["Coffee beans", null]],
    );
  } finally {
    await sandbox.close();
    await production.close();
  }
});

Deno.test("[config] the panel's review marks what production refuses and imports only what stays ticked", async () => {
  const sandbox = await makeTestApp({ plan: "PRO" });
  const { t: production, agent } = await signedInApp({ plan: "PRO", environment: "production" });
  try {
    const coffee = await (await sandbox.request("POST", "/api/v1/qr", {
      name: "Coffee",
      amount: 1250,
      currency: "PLN",
    })).json();
    const test = await (await sandbox.request("POST", "/api/v1/qr", {
      name: "Test offer",
      amount: 100,
      currency: "PLN",
    })).json();
    await sandbox.request("POST", "/api/v1/webhook-endpoints", {
      url: "http://localhost:3000/hooks",
    });
    const file = await exportConfig(orgContext(sandbox.services, sandbox.orgId), "acme");
    file.organisation.slug = "acme";
    const text = await serializeConfig(file);
    const form = new FormData();
    form.append("_csrf", agent.csrf);
    form.append("file", new File([text], "config.json", { type: "application/json" }));
    const review = await production.app.request("/panel/developers/config-transfer/plan", {
      method: "POST",
      headers: {
        accept: "text/html",
        "accept-language": "pl-PL",
        "sec-fetch-site": "same-origin",
        cookie: [...agent.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      },
      body: form,
    });
    assert.equal(review.status, 200);
    const page = pageText(await review.text());
    assert.match(page, /utworzy ofertę „Coffee” \(12,50 zł\) dla qr_\w+/);
    assert.match(
      page,
      /utworzy endpoint webhooków http:\/\/localhost:3000\/hooks \(\*\) z nowym sekretem podpisu Pominięte: środowisko produkcyjne tego nie przyjmie\./,
    );
    assert.match(page, /Importuj zaznaczone zmiany/);

    // The merchant leaves the test offer out; the refused endpoint cannot be ticked at all.
    const applied = await agent.post("/panel/developers/config-transfer/apply", {
      config: text,
      include: [`offer:${coffee.qrId}`, `endpoint:${file.webhookEndpoints[0].id}`],
    });
    assert.equal(applied.status, 200);
    const result = pageText(await applied.text());
    assert.match(result, /Imported 1 change\./);
    assert.match(
      result,
      new RegExp(`Left out create offer 'Test offer' \\(PLN 1\\.00\\) for ${test.qrId}`),
    );
    const offers = await (await production.request("GET", "/api/v1/qr")).json();
    assert.deepEqual(offers.data.map((offer: { name: string }) => offer.name), ["Coffee"]);
    const endpoints = await (await production.request("GET", "/api/v1/webhook-endpoints")).json();
    assert.equal(endpoints.data.length, 0);
  } finally {
    await sandbox.close();
    await production.close();
  }
});

Deno.test("[config] export with a mistyped DATA_DIR refuses and creates nothing", async () => {
  const parent = await Deno.makeTempDir({ prefix: "paystead-config-typo-" });
  const typo = `${parent}/dta`;
  try {
    const result = await runCli(["config", "export", "--org", "shop"], { DATA_DIR: typo });
    assert.deepEqual(result, {
      code: 2,
      stdout: "",
      stderr:
        `There is no database at ${typo}/accounts.db. Check DATA_DIR (now ${typo}); run migrate to start a new one there.`,
    });
    assert.deepEqual([...Deno.readDirSync(parent)], []);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
