import assert from "node:assert/strict";
import type {
  PaymentProvider,
  ProviderCallback,
  ProviderNotifications,
} from "../lib/providers/mod.ts";
import { translateError } from "../lib/panel/error_text.ts";
import { translator } from "../lib/i18n/mod.ts";
import { SandboxProvider } from "../lib/providers/sandbox.ts";
import { makeTestApp, type TestApp } from "./support/helpers.ts";

const root = new URL("../", import.meta.url);

/** Where no file may name PayU: everything but the provider folders (and the tests). */
const SCANNED = [
  "lib",
  "routes",
  "db",
  "components",
  "islands",
  "bin",
  "main.ts",
  "server.ts",
  "listener.ts",
];

/**
 * PayU as a word, in any case ("PayU", "payu", "PAYU_POS_ID", "PayuProvider"), and not the two
 * words of `payUrl` (a pay link): an upper-case U that starts a camel-case word is not PayU's.
 */
const PAYU = /[Pp][Aa][Yy](?:u|U(?![a-z]))/;

/** The lines outside lib/providers/ that may name PayU, and why. */
const ALLOWED: { file: string; line: RegExp; why: string }[] = [
  {
    file: "lib/config.ts",
    line: /^import \{ payu \} from "\.\/providers\/payu\/config\.ts";$/,
    why: "the provider list's import",
  },
  { file: "lib/config.ts", line: /^ {2}return \[sandbox, payu\] as const;$/, why: "the list" },
  { file: "main.ts", line: /fake[- ]?payu/i, why: "the `fake-payu` command's usage lines" },
  {
    file: "db/migrations/environment/0011_reconciliations.ts",
    line: /^ \* Records for the accountant: the reconciliations of PayU's statements/,
    why: "a landed migration is frozen",
  },
];

/** Every .ts and .tsx file under `path` (a file or a folder), relative to the root. */
async function sources(path: string): Promise<string[]> {
  const info = await Deno.stat(new URL(path, root));
  if (info.isFile) return /\.tsx?$/.test(path) ? [path] : [];
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(path, root))) {
    const child = `${path}/${entry.name}`;
    if (child === "lib/providers") continue;
    files.push(...await sources(child));
  }
  return files;
}

/** Each line naming PayU outside lib/providers/ as `file:line: text`, and the allowed ones used. */
async function payuLines(): Promise<{ offences: string[]; used: Set<number> }> {
  const offences: string[] = [];
  const used = new Set<number>();
  for (const path of SCANNED) {
    for (const file of await sources(path)) {
      const lines = (await Deno.readTextFile(new URL(file, root))).split("\n");
      lines.forEach((text, index) => {
        if (!PAYU.test(text)) return;
        const allowed = ALLOWED.findIndex((entry) => entry.file === file && entry.line.test(text));
        if (allowed === -1) offences.push(`${file}:${index + 1}: ${text.trim()}`);
        else used.add(allowed);
      });
    }
  }
  return { offences, used };
}

Deno.test("[provider seam] no file outside lib/providers/ names PayU, but for the allowlist", async () => {
  const { offences, used } = await payuLines();
  assert.deepEqual(offences, []);
  // An entry nothing needs any more is taken out, so the list stays minimal.
  assert.deepEqual(
    ALLOWED.filter((_, index) => !used.has(index)).map((entry) => entry.why),
    [],
  );
});

Deno.test("[provider seam] the guard's pattern is PayU in any spelling, and not a pay link", () => {
  for (const text of ["PayU", "payu", "PAYU_POS_ID", "PayuProvider", "PayU's", "fake-payu"]) {
    assert.equal(PAYU.test(text), true, text);
  }
  for (const text of ["payUrl", "offerPayUrl", "payment", "PayPal"]) {
    assert.equal(PAYU.test(text), false, text);
  }
});

/**
 * A second acquirer as small as one can be: the simulator's payments, and callbacks signed by
 * an `Zenith-Signature` header that must read "valid".
 */
class ZenithProvider implements PaymentProvider {
  readonly #sandbox = new SandboxProvider();
  readonly name = "zenith";
  readonly health = this.#sandbox.health;
  readonly orderValidityMs = this.#sandbox.orderValidityMs;
  readonly renewals = null;
  readonly statements = null;
  readonly status = {
    displayName: "Zenith Pay",
    account: { posId: "42", apiUrl: "https://zenith.example" },
    notifyUrl: "http://sandbox.test/providers/zenith/notify",
    testPayments: null,
  };
  readonly connectionTest = null;
  /** The callbacks whose signature held, as the route handed them over. */
  readonly received: ProviderCallback[] = [];
  readonly notifications: ProviderNotifications = {
    maxBytes: 1024,
    signatureProblem: "The Zenith-Signature header does not match the body.",
    translate: (callback) => {
      if (callback.headers.get("zenith-signature") !== "valid") {
        return Promise.resolve({ kind: "forged" });
      }
      this.received.push(callback);
      return Promise.resolve({ kind: "ignored" });
    },
  };

  doctorChecks() {
    return Promise.resolve([]);
  }
  paymentMethods(...args: Parameters<SandboxProvider["paymentMethods"]>) {
    return this.#sandbox.paymentMethods(...args);
  }
  authorize(...args: Parameters<SandboxProvider["authorize"]>) {
    return this.#sandbox.authorize(...args);
  }
  lookup(...args: Parameters<SandboxProvider["lookup"]>) {
    return this.#sandbox.lookup(...args);
  }
  cancel() {
    return this.#sandbox.cancel();
  }
  refund(...args: Parameters<SandboxProvider["refund"]>) {
    return this.#sandbox.refund(...args);
  }
  lookupRefund(...args: Parameters<SandboxProvider["lookupRefund"]>) {
    return this.#sandbox.lookupRefund(...args);
  }
}

async function notify(t: TestApp, name: string, body: string, signature = "valid") {
  return await t.app.request(`/providers/${name}/notify`, {
    method: "POST",
    headers: { "content-type": "application/json", "zenith-signature": signature },
    body,
  });
}

async function errorOf(response: Response, status: number): Promise<unknown> {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("content-type"), "application/json");
  const { error } = await response.json();
  return { code: error.code, message: error.message };
}

Deno.test("[provider seam] another provider's callbacks come to its own notify route", async (t) => {
  const zenith = new ZenithProvider();
  const app = await makeTestApp({ provider: zenith });
  try {
    await t.step("signed: handed over with its headers and raw body, 200 OK", async () => {
      const response = await notify(app, "zenith", '{"order":"1"}');
      assert.equal(response.status, 200);
      assert.equal(await response.text(), "OK");
      assert.equal(zenith.received.length, 1);
      assert.equal(zenith.received[0].body, '{"order":"1"}');
      assert.equal(zenith.received[0].headers.get("zenith-signature"), "valid");
    });
    await t.step("a bad signature is 401 with the provider's words, nothing taken", async () => {
      assert.deepEqual(await errorOf(await notify(app, "zenith", "{}", "forged"), 401), {
        code: "signature_invalid",
        message: "The Zenith-Signature header does not match the body.",
      });
      assert.equal(zenith.received.length, 1);
    });
    await t.step("over its body cap: 413 naming the provider, nothing taken", async () => {
      assert.deepEqual(await errorOf(await notify(app, "zenith", "x".repeat(1025)), 413), {
        code: "body_too_large",
        message: "A Zenith Pay notification is at most 1 KiB.",
      });
      assert.equal(zenith.received.length, 1);
    });
    await t.step("no statements: reconciliation is 409 naming the provider", async () => {
      const response = await app.app.request("/api/v1/reconciliations", {
        method: "POST",
        headers: { authorization: `Bearer ${app.apiKey}`, "content-type": "text/csv" },
        body: "Date;Amount\n",
      });
      assert.deepEqual(await errorOf(response, 409), {
        code: "state_conflict",
        message: "Zenith Pay has no statements for Paystead to reconcile.",
      });
    });
    await t.step("PayU's route and unknown names are 404 here", async () => {
      for (const name of ["payu", "sandbox", "nobody"]) {
        assert.deepEqual(await errorOf(await notify(app, name, "{}"), 404), {
          code: "route_not_found",
          message: `There is no POST /providers/${name}/notify.`,
        });
      }
      assert.equal(zenith.received.length, 1);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[provider seam] with PayU configured, another provider's name is 404", async () => {
  const app = await makeTestApp({ environment: "production" });
  try {
    for (const name of ["zenith", "sandbox"]) {
      assert.deepEqual(await errorOf(await notify(app, name, "{}"), 404), {
        code: "route_not_found",
        message: `There is no POST /providers/${name}/notify.`,
      });
    }
    // Its own route answers: 401 for a callback without PayU's signature.
    assert.equal((await notify(app, "payu", "{}")).status, 401);
  } finally {
    await app.close();
  }
});

Deno.test("[provider seam] the simulator takes no callbacks: no notify route in the sandbox", async () => {
  const app = await makeTestApp();
  try {
    assert.deepEqual(await errorOf(await notify(app, "sandbox", "{}"), 404), {
      code: "route_not_found",
      message: "There is no POST /providers/sandbox/notify.",
    });
  } finally {
    await app.close();
  }
});

Deno.test("[provider seam] the panel's Polish names whichever provider's statement it was", () => {
  const pl = translator("pl");
  assert.equal(
    translateError(pl, "Choose Zenith Pay's statement (a .csv file)."),
    "Wybierz zestawienie Zenith Pay (plik .csv).",
  );
  assert.equal(
    translateError(
      pl,
      "Line 1: this is not a Zenith Pay statement: it has no 'date' column (the header names 'x').",
    ),
    "Wiersz 1: to nie jest zestawienie Zenith Pay — brakuje kolumn: 'date' (nagłówek zawiera: 'x').",
  );
  assert.equal(
    translateError(
      pl,
      "Line 3: the statement is larger than 10 MiB; download Zenith Pay's statement of a shorter period.",
    ),
    "Wiersz 3: zestawienie jest większe niż 10 MiB; pobierz z Zenith Pay zestawienie za krótszy okres.",
  );
});

Deno.test("[provider seam] each side of the provider list loads first without a cycle error", async () => {
  // lib/config.ts imports the provider folders, whose adapters import modules that import it:
  // whichever a process loads first, none may read the other before it is evaluated.
  for (
    const entry of [
      "lib/config.ts",
      "lib/providers/payu/config.ts",
      "lib/providers/payu/provider.ts",
      "lib/providers/sandbox/config.ts",
    ]
  ) {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["eval", `await import(${JSON.stringify(new URL(entry, root).href)});`],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(stderr), "", entry);
    assert.equal(code, 0, entry);
  }
});

/** Each relative import under lib/providers/ that reaches db/ or lib/payments/, as `file: spec`. */
async function coreImports(folder: URL): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), folder);
    if (entry.isDirectory) found.push(...await coreImports(url));
    if (!entry.isFile || !/\.tsx?$/.test(entry.name)) continue;
    const text = await Deno.readTextFile(url);
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)) {
      const target = new URL(spec, url).href;
      if (
        target.startsWith(new URL("db/", root).href) ||
        target.startsWith(new URL("lib/payments/", root).href)
      ) found.push(`${url.href.slice(root.href.length)}: ${spec}`);
    }
  }
  return found;
}

Deno.test("[provider seam] providers only translate: no file under lib/providers/ imports db/ or lib/payments/", async () => {
  assert.deepEqual(await coreImports(new URL("lib/providers/", root)), []);
});
