import assert from "node:assert/strict";
import { csrfTokenOf } from "../lib/accounts/sessions.ts";
import { type ConfigBody, serializeConfig } from "../lib/config_transfer/format.ts";
import { DEMO_OWNER_EMAIL } from "../lib/demo.ts";
import { type ChildServer, demoApiKey, startPaystead } from "./support/processes.ts";

const TRANSFER = "/panel/developers/config-transfer";

/** A signed-in owner over real HTTP, posting forms as the panel's pages do. */
class Owner {
  cookie = "";
  constructor(readonly server: ChildServer) {}

  async post(
    path: string,
    form: Record<string, string | File>,
    multipart = false,
    whole?: FormData,
  ) {
    const csrf = csrfTokenOf(this.cookie.split("=")[1] ?? "");
    const fields = { ...(this.cookie && { _csrf: csrf }), ...form };
    let body: FormData | URLSearchParams;
    if (multipart) {
      body = whole ?? new FormData();
      if (whole && this.cookie) body.append("_csrf", csrf);
      if (!whole) { for (const [name, value] of Object.entries(fields)) body.append(name, value); }
    } else body = new URLSearchParams(fields as Record<string, string>);
    const response = await fetch(this.server.url + path, {
      method: "POST",
      redirect: "manual",
      headers: {
        accept: "text/html",
        "sec-fetch-site": "same-origin",
        ...(this.cookie && { cookie: this.cookie }),
      },
      body,
    });
    const set = response.headers.get("set-cookie");
    if (set) this.cookie = set.split(";")[0];
    return { status: response.status, html: await response.text() };
  }

  /** Uploads a configuration file's text to the plan step, then sends it back to apply. */
  async upload(text: string) {
    const file = new File([text], "config.json", { type: "application/json" });
    return await this.post(`${TRANSFER}/plan`, { file }, true);
  }

  /** Confirms a reviewed plan with the items its review ticked (`include`). */
  async apply(text: string, review?: string) {
    const form = new FormData();
    form.append("config", text);
    for (const [, key] of (review ?? "").matchAll(/name="include" value="([^"]+)"/g)) {
      form.append("include", key);
    }
    return await this.post(`${TRANSFER}/apply`, {}, true, form);
  }
}

/** A production export of the demo organisation holding `offers`, checksum included. */
function configFile(offers: ConfigBody["offers"]): Promise<string> {
  return serializeConfig({
    format: "paystead-config",
    version: 1,
    exportedAt: "2026-11-26T08:00:00.000Z",
    organisation: { slug: "demo" },
    environment: "production",
    offers,
    webhookEndpoints: [],
    checkout: { allowedOrigins: [] },
  });
}

function offer(index: number, metadata: Record<string, string>): ConfigBody["offers"][number] {
  return {
    qrId: `qr_${String(index).padStart(24, "0")}`,
    name: `Offer ${index}`,
    description: null,
    amount: 1000,
    currency: "PLN",
    recurring: null,
    active: true,
    metadata,
  };
}

function metadataOf(keys: number, length: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, "x".repeat(length)]));
}

Deno.test("[config] an import stores nothing the API would refuse; the panel takes the format's size", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-config-limits-" });
  const server = await startPaystead(dataDir);
  try {
    const apiKey = await demoApiKey(server);
    const owner = new Owner(server);
    const oneTime = /Password:\s+(\S+)/.exec(server.output())![1];
    const chosen = "lantern meadow copper whistle";
    assert.equal(
      (await owner.post("/panel/sign-in", { email: DEMO_OWNER_EMAIL, password: oneTime })).status,
      303,
    );
    assert.equal(
      (await owner.post("/panel/password", { password: chosen, confirm: chosen })).status,
      303,
    );

    // Five offers with metadata at the API's limits: a 130 KiB file, within the format's 1 MiB.
    const full = metadataOf(50, 500);
    const first = await configFile(Array.from({ length: 5 }, (_, i) => offer(i, full)));
    assert.ok(first.length > 128 * 1024);
    const plan = await owner.upload(first);
    assert.equal(plan.status, 200, plan.html.slice(0, 500));
    assert.match(plan.html, /Import the ticked changes/);
    assert.equal(plan.html.match(/name="include"/g)?.length, 5);
    assert.equal((await owner.apply(first, plan.html)).status, 200);
    const list = await (await fetch(`${server.url}/api/v1/qr?limit=100`, {
      headers: { authorization: `Bearer ${apiKey}` },
    })).json();
    const imported = list.data.filter((item: { name: string }) => item.name === "Offer 0");
    assert.equal(imported.length, 1);
    assert.deepEqual(imported[0].metadata, full);

    // The same offer changed to 60 keys of 600 characters, checksum and all: refused whole, at
    // the plan and at the apply step.
    const cases: [Record<string, string>, string][] = [
      [metadataOf(60, 600), "offers.0.metadata.k0: metadata values are at most 500 characters."],
      [metadataOf(60, 1), "offers.0.metadata: metadata has at most 50 keys."],
    ];
    for (const [metadata, problem] of cases) {
      const over = await configFile([offer(0, metadata)]);
      for (const refused of [await owner.upload(over), await owner.apply(over)]) {
        assert.equal(refused.status, 400);
        const shown = /This is not a usable[^<]*/.exec(refused.html)?.[0];
        assert.equal(shown, `This is not a usable Paystead configuration file: ${problem}`);
      }
    }
    const after = await (await fetch(`${server.url}/api/v1/qr/${imported[0].qrId}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    })).json();
    assert.deepEqual(after.metadata, full);
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
