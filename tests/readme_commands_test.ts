/**
 * Every command the README or the panel shows runs as shown: each README ```sh block goes through
 * `bash -c` with its exact text, in README order, against a real server (a shell session carries
 * the variables one block sets to the next, as one terminal would), and the panel's commands are
 * taken from the HTML a signed-in owner is served and run the same way.
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { csrfTokenOf } from "../lib/accounts/sessions.ts";
import { DEMO_OWNER_EMAIL } from "../lib/demo.ts";
import {
  type ChildServer,
  demoApiKey,
  freePort,
  runCli,
  startPaystead,
} from "./support/processes.ts";
import {
  assertAnswersAsShown,
  assertPrintedAsShown,
  type BackgroundRun,
  bash,
  copyRepository,
  jsonDocuments,
  portIsFree,
  readmeShellBlocks,
  ShellSession,
} from "./support/readme.ts";
import { payuStatement } from "./support/payu_statement.ts";

const root = new URL("../", import.meta.url).pathname;

/** A README block's name in the tables below: its heading and its place under it. */
function keyedBlocks(): { key: string; section: string; index: number; text: string }[] {
  const seen = new Map<string, number>();
  return readmeShellBlocks().map(({ section, text }) => {
    const index = seen.get(section) ?? 0;
    seen.set(section, index + 1);
    return { key: `${section} #${index}`, section, index, text };
  });
}

/** The README's blocks that another test file runs as written, through `readmeBlock`. */
const RUN_ELSEWHERE: Record<string, string> = {
  "Records for the accountant #0": "tests/readme_records_test.ts",
  "Command line #0": "tests/readme_backup_test.ts",
  "Off-site backups #0": "tests/offsite_backups_test.ts",
};

/** What the README's blocks share, in order: one terminal, its server, what keeps running. */
interface Context {
  session: ShellSession;
  api: string;
  key: string;
  /** Blocks still running in the background for a later block (listen, the fake PayU). */
  running: Map<string, BackgroundRun>;
  /** The receiver on the README's localhost:3000, when that port was free. */
  receiver: { requests: { headers: Headers; body: string }[]; close(): Promise<void> } | null;
  /** The text of a block a later one checks the output of (listen's). */
  texts: Map<string, string>;
}

type Check = (text: string, context: Context) => Promise<void>;

/** The README's blocks this file runs, each with what it asserts of the outcome. */
const RUN_HERE: Record<string, Check> = {
  "Two commands #0": twoCommands,
  "A payment in three calls #0": paymentInThreeCalls,
  "Refunds, subscriptions and the sandbox clock #0": refundAndClock,
  "Embedded checkout #0": embeddedCheckout,
  "Webhooks #0": webhookEndpoint,
  "Developer tools #0": listenStarts,
  "Developer tools #1": triggerIsForwarded,
  "Trying production locally with a fake PayU #0": fakePayuStarts,
  "Trying production locally with a fake PayU #1": productionUsesTheFake,
};

async function api(context: Context, path: string, init: RequestInit = {}) {
  const response = await fetch(`${context.api}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${context.key}`, ...init.headers },
  });
  return { status: response.status, body: await response.json() };
}

async function ran(context: Context, text: string, env: Record<string, string> = {}) {
  const result = await context.session.run(text, env);
  assert.equal(result.code, 0, `${text}\n${result.stderr}`);
  return result;
}

// The two commands: the start runs in the background until it answers; the test command is
// this suite, so it is the one `.ci/run` runs.
async function twoCommands(text: string, context: Context) {
  const [start, test] = text.trimEnd().split("\n");

  // The comment names port 8787: there when it is free, else the same command on PORT.
  const port = portIsFree(8787) ? 8787 : freePort();
  const server = context.session.start(start, port === 8787 ? {} : { PORT: String(port) });
  try {
    const [, tryIt] = await server.waitFor(/Try it: .*\n((?: {2}.*\n){2})/, 90_000);
    const printed = server.output();
    assert.match(printed, new RegExp(`Paystead sandbox is running on port ${port}\\.`));
    assert.match(printed, /First start: created the demo organisation 'demo' \(plan ENTERPRISE\)/);
    const lines = tryIt.trimEnd().split("\n").map((line) => line.trim());
    assert.match(lines[0], new RegExp(`^export API=http://localhost:${port} KEY=sk_sandbox_\\w+$`));
    // What the first start prints to paste runs as printed, with the key it created.
    const tried = await bash(lines.join("\n"));
    assert.equal(tried.code, 0, tried.stderr);
    assert.deepEqual(JSON.parse(tried.stdout).data, []);
  } finally {
    await server.stop();
  }
  const ci = (await Deno.readTextFile(`${root}.ci/run`)).trimEnd().split("\n").at(-1);
  assert.equal(ci, `exec ${test.replace(/\s+#.*$/, "")}`, ".ci/run runs the README's test command");
}

async function paymentInThreeCalls(text: string, context: Context) {
  const result = await ran(context, text);
  const qr = await context.session.variable("QR");
  const pay = await context.session.variable("PAY");
  assert.match(qr, /^qr_\w{24}$/);
  assert.match(pay, /^pay_\w{24}$/);
  const documents = jsonDocuments(result.stdout);
  assert.equal(documents.length, 1);
  const payment = documents[0] as Record<string, unknown>;
  assert.deepEqual([payment.paymentId, payment.qrId, payment.status, payment.amount], [
    pay,
    qr,
    "SUCCEEDED",
    1250,
  ]);
  assertAnswersAsShown(text, documents);
}

async function refundAndClock(text: string, context: Context) {
  const documents = jsonDocuments((await ran(context, text)).stdout);
  const [refund, clock] = documents as Record<string, unknown>[];
  assert.equal(documents.length, 2);
  assert.match(String(refund.refundId), /^re_\w{24}$/);
  assert.deepEqual([refund.paymentId, refund.amount, refund.status], [
    await context.session.variable("PAY"),
    500,
    "PENDING",
  ]);
  assert.equal(clock.advancedDays, 30);
  assertAnswersAsShown(text, documents);
}

async function embeddedCheckout(text: string, context: Context) {
  const documents = jsonDocuments((await ran(context, text)).stdout);
  const [settings, session] = documents as Record<string, unknown>[];
  assert.deepEqual(settings, { allowedOrigins: ["http://localhost:3000"] });
  assert.match(String(session.sessionId), /^cs_\w{24}$/);
  assert.equal(session.qrId, await context.session.variable("QR"));
  assert.equal(session.embedUrl, `${context.api}/checkout/${session.sessionId}`);
  assert.equal(session.embedLink, "http://localhost:3000/shop");
  assertAnswersAsShown(text, documents);
}

async function webhookEndpoint(text: string, context: Context) {
  const documents = jsonDocuments((await ran(context, text)).stdout);
  const endpointId = await context.session.variable("WE");
  assert.match(endpointId, /^we_\w{24}$/);
  const secret = await context.session.variable("PAYSTEAD_WEBHOOK_SECRET");
  assert.match(secret, /^whsec_/);
  const endpoint = await api(context, `/api/v1/webhook-endpoints/${endpointId}`);
  assert.deepEqual([endpoint.body.url, endpoint.body.events], [
    "http://localhost:3000/webhooks",
    ["payment.*", "refund.*"],
  ]);
  assert.equal(
    (await api(context, `/api/v1/webhook-endpoints/${endpointId}/secret`)).body.secret,
    secret,
  );
  const [delivery] = documents as Record<string, unknown>[];
  assert.equal(documents.length, 1);
  assert.deepEqual([delivery.endpointId, delivery.trigger], [endpointId, "TEST"]);
  assertAnswersAsShown(text, documents);
}

/** A receiver on the README's localhost:3000 answering 204, when that port is free. */
function receiverOn3000(): Context["receiver"] {
  if (!portIsFree(3000)) return null;
  const requests: { headers: Headers; body: string }[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 3000, onListen() {} },
    async (request) => {
      requests.push({ headers: request.headers, body: await request.text() });
      return new Response(null, { status: 204 });
    },
  );
  return { requests, close: () => server.shutdown() };
}

async function listenStarts(text: string, context: Context) {
  context.receiver = receiverOn3000();
  const listen = context.session.start(text);
  context.running.set("listen", listen);
  context.texts.set("listen", text);
  await listen.waitFor(/^Connected\.$/m, 60_000);
  const state = JSON.parse(await Deno.readTextFile(`${context.session.cwd}/data/listen.json`));
  assert.match(
    listen.output(),
    new RegExp(
      `Webhook signing secret: ${
        state.secret.replace(/[+/]/g, "\\$&")
      } \\(kept in \\./data/listen\\.json\\)`,
    ),
  );
}

async function triggerIsForwarded(text: string, context: Context) {
  const listen = context.running.get("listen");
  assert.ok(listen, "listen runs (the block before)");
  const result = await ran(context, text);
  assertPrintedAsShown(text, result.stdout);
  const paymentId = /^payment +(pay_\w+)/m.exec(result.stdout)![1];
  const receiver = context.receiver;
  const [, eventId] = await listen.waitFor(
    receiver
      ? /^--> payment\.succeeded (evt_\w+)\n<-- 204 \d+ ms$/m
      : /^--> payment\.succeeded (evt_\w+)$/m,
    30_000,
  );
  await listen.stop();
  context.running.delete("listen");
  if (!receiver) return; // port 3000 was taken: what listen sent is all there is to check
  assertPrintedAsShown(context.texts.get("listen")!, listen.output());
  // The event reached localhost:3000 twice: from listen, signed with listen's own secret, and
  // from the README's webhook endpoint, signed with its secret (PAYSTEAD_WEBHOOK_SECRET).
  const secrets = [
    /Webhook signing secret: (\S+)/.exec(listen.output())![1],
    await context.session.variable("PAYSTEAD_WEBHOOK_SECRET"),
  ];
  type Forwarded = { type: string; data: { paymentId: string } };
  const signedWith = (secret: string): Forwarded | null => {
    for (const request of receiver.requests) {
      if (request.headers.get("webhook-id") !== eventId) continue;
      try {
        return new Webhook(secret).verify(
          request.body,
          Object.fromEntries(request.headers),
        ) as Forwarded;
      } catch {
        // signed with the other secret
      }
    }
    return null;
  };
  for (const secret of secrets) {
    for (let tries = 0; tries < 100 && !signedWith(secret); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const event = signedWith(secret);
    assert.ok(event, `${eventId} reached localhost:3000 signed with ${secret.slice(0, 10)}...`);
    assert.deepEqual([event.type, event.data.paymentId], ["payment.succeeded", paymentId]);
  }
}

async function fakePayuStarts(text: string, context: Context) {
  // The block names its port: another program there would make it fail as shown.
  assert.ok(portIsFree(8790), "port 8790, which the README's fake-payu line names, is taken");
  const fake = context.session.start(text);
  context.running.set("fake", fake);
  await fake.waitFor(/^PAYU_SECOND_KEY=\w+$/m, 60_000);
  assertPrintedAsShown(text, fake.output());
}

async function productionUsesTheFake(text: string, context: Context) {
  assert.ok(context.running.has("fake"), "the fake PayU runs (the block before)");
  const port = portIsFree(8788) ? 8788 : freePort();
  const production = context.session.start(text, port === 8788 ? {} : { PORT: String(port) });
  context.running.set("production", production);
  await production.waitFor(new RegExp(`Paystead production is running on port ${port}\\.`), 60_000);
  // A payment in production goes to the fake PayU, which completes 777xxx and notifies.
  const env = { DATA_DIR: `${context.session.cwd}/data`, PAYSTEAD_ENV: "production" };
  const created = await runCli(["key", "create", "--org", "demo"], env);
  assert.equal(created.code, 0, created.stderr);
  const key = /(sk_production_\w+)/.exec(created.stdout)![1];
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`http://localhost:${port}${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return await response.json();
  };
  const offer = await call("/api/v1/qr", { name: "Kawa", amount: 1250, currency: "PLN" });
  const payment = await call("/payments", { qrId: offer.qrId });
  // The customer's code, entered on the hosted page as its script sends it.
  const entered = await fetch(`http://localhost:${port}/pay/${payment.paymentId}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      "sec-fetch-site": "same-origin",
    },
    body: JSON.stringify({ code: "777123" }),
  });
  assert.ok(entered.ok, `${entered.status}: ${await entered.text()}`);
  // --notify-delay 2s: the fake's notification arrives after two seconds.
  let status = "";
  for (let tries = 0; tries < 100 && status !== "SUCCEEDED"; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await call(`/api/v1/payments/${payment.paymentId}`)).status;
  }
  assert.equal(status, "SUCCEEDED", production.output());
}

/** The commands a page shows: its code elements whose text is a shell command, in order. */
function shownCommands(html: string): { id: string | null; text: string }[] {
  const decode = (text: string) =>
    text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
      .replace(/&#39;|&#x27;/g, "'").replace(/&amp;/g, "&");
  return [...html.matchAll(/<code([^>]*)>([\s\S]*?)<\/code>/g)]
    .map(([, attributes, inner]) => ({
      id: /\bid="([^"]+)"/.exec(attributes)?.[1] ?? null,
      text: decode(inner),
    }))
    .filter(({ text }) => /^(curl |deno |npx |export |# |[A-Z_]+=\$\()/.test(text));
}

/** The demo owner, signed in to a real server's panel over HTTP as a browser would be. */
async function signedInOwner(server: ChildServer) {
  let cookie = "";
  const request = async (method: string, path: string, form?: Record<string, string>) => {
    const body = form &&
      new URLSearchParams({ ...form, ...(cookie && { _csrf: csrfTokenOf(cookie.split("=")[1]) }) });
    const response = await fetch(server.url + path, {
      method,
      redirect: "manual",
      headers: {
        accept: "text/html",
        "sec-fetch-site": "same-origin",
        ...(cookie && { cookie }),
      },
      body,
    });
    const set = response.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0];
    return { status: response.status, html: await response.text() };
  };
  const oneTime = /Password:\s+(\S+)/.exec(server.output())![1];
  const chosen = "lantern meadow copper whistle";
  assert.equal(
    (await request("POST", "/panel/sign-in", { email: DEMO_OWNER_EMAIL, password: oneTime }))
      .status,
    303,
  );
  assert.equal(
    (await request("POST", "/panel/password", { password: chosen, confirm: chosen })).status,
    303,
  );
  return request;
}

/** The files that render a command in the panel, and the step below that runs it as served. */
const PANEL_COMMANDS: Record<string, string> = {
  "islands/QuickStart.tsx": "panel: the Quick Start's curls, pasted in order",
  "routes/panel/api_keys/pages.tsx": "panel: a new key's 'Try it' runs as shown",
  "routes/panel/reference/operation.tsx":
    "panel: every curl of the API reference, with its ids set",
  "routes/panel/developers/pages.tsx":
    "panel: the set-plan commands run as shown in the installation",
  "routes/panel/team/plan_card.tsx":
    "panel: the set-plan commands run as shown in the installation",
};

/** Every file under `dir` (a folder of the repository), by its path from the root. */
async function* filesUnder(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${root}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* filesUnder(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("[readme] every shell block of the README is run as written by a test", async () => {
  const keys = keyedBlocks().map((block) => block.key);
  const covered = [...Object.keys(RUN_HERE), ...Object.keys(RUN_ELSEWHERE)];
  assert.deepEqual(keys.filter((key) => !covered.includes(key)), [], "README blocks no test runs");
  assert.deepEqual(covered.filter((key) => !keys.includes(key)), [], "blocks the README lost");
  for (const [key, file] of Object.entries(RUN_ELSEWHERE)) {
    const { section, index } = keyedBlocks().find((block) => block.key === key)!;
    const call = `readmeBlock(${JSON.stringify(section)}${index ? `, ${index}` : ""})`;
    assert.ok((await Deno.readTextFile(`${root}${file}`)).includes(call), `${file} runs ${call}`);
  }
});

Deno.test("[readme] every panel file that renders a command has a step that runs it", async () => {
  const rendering: string[] = [];
  for (const dir of ["routes", "components", "islands"]) {
    for await (const file of filesUnder(dir)) {
      const source = await Deno.readTextFile(`${root}${file}`);
      if (/curl(Upload)?Command\(|<code>\s*deno task /.test(source)) rendering.push(file);
    }
  }
  assert.deepEqual(rendering.toSorted(), Object.keys(PANEL_COMMANDS).toSorted());
  const steps = await Deno.readTextFile(new URL(import.meta.url));
  for (const step of new Set(Object.values(PANEL_COMMANDS))) {
    assert.ok(steps.includes(`t.step(${JSON.stringify(step)}`), step);
  }
});

Deno.test("[readme] the README's shell blocks, pasted in order, work against a real server; so do the panel's commands", async (t) => {
  const cwd = await copyRepository("paystead-readme-cwd-");
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-readme-data-" });
  const server = await startPaystead(dataDir);
  // Other tests run servers at once: no block's server takes the default metrics port.
  const session = await ShellSession.open(cwd, { METRICS_LISTEN: "off" });
  const context: Context = {
    session,
    api: server.url,
    key: await demoApiKey(server),
    running: new Map(),
    receiver: null,
    texts: new Map(),
  };
  try {
    await t.step("the line the first start prints to paste sets API and KEY", async () => {
      const [, line] = /^ {2}(export API=.*)$/m.exec(server.output())!;
      await ran(context, line);
      assert.equal(await session.variable("API"), server.url);
      assert.equal(await session.variable("KEY"), context.key);
    });
    for (const { key, text } of keyedBlocks()) {
      const check = RUN_HERE[key];
      if (check) await t.step(`README: ${key}`, () => check(text, context));
    }
    for (const run of context.running.values()) await run.stop();
    context.running.clear();

    const owner = await signedInOwner(server);
    const panelShell = await ShellSession.open(root, { PAYSTEAD_KEY: context.key });
    try {
      await t.step("panel: the Quick Start's curls, pasted in order", async () => {
        const page = await owner("GET", "/panel/developers/quickstart");
        assert.equal(page.status, 200);
        await quickStartCommands(shownCommands(page.html), panelShell, context);
      });
    } finally {
      await panelShell.close();
    }
    await t.step("panel: every curl of the API reference, with its ids set", async () => {
      const page = await owner("GET", "/panel/reference");
      assert.equal(page.status, 200);
      await referenceCommands(shownCommands(page.html), context);
    });
    await t.step("panel: a new key's 'Try it' runs as shown", async () => {
      const created = await owner("POST", "/panel/developers/api-keys", { name: "Try it" });
      assert.equal(created.status, 201);
      const commands = shownCommands(created.html);
      assert.deepEqual(commands.map((command) => command.id), ["try-key"]);
      const result = await bash(commands[0].text);
      assert.equal(result.code, 0, result.stderr);
      const offers = JSON.parse(result.stdout).data;
      assert.equal(offers.length, 1);
      assert.match(offers[0].qrId, /^qr_/);
    });
    await t.step("panel: the set-plan commands run as shown in the installation", async () => {
      const env = { DATA_DIR: dataDir };
      const team = shownCommands((await owner("GET", "/panel/team")).html);
      assert.deepEqual(team.map((command) => command.text), [
        "deno task cli org set-plan --slug demo --plan ENTERPRISE",
      ]);
      const kept = await bash(team[0].text, { env });
      assert.deepEqual([kept.code, kept.stdout], [
        0,
        "Organisation 'demo' is now on plan ENTERPRISE.\n",
      ]);

      // On FREE, Developers offers the upgrade: its command opens Developers again.
      assert.equal(
        (await runCli(["org", "set-plan", "--slug", "demo", "--plan", "FREE"], env)).code,
        0,
      );
      const upgrade = await owner("GET", "/panel/developers");
      assert.equal(upgrade.status, 403);
      const commands = shownCommands(upgrade.html);
      assert.deepEqual(commands.map((command) => command.text), [
        "deno task cli org set-plan --slug demo --plan BASIC",
      ]);
      const upgraded = await bash(commands[0].text, { env });
      assert.deepEqual([upgraded.code, upgraded.stdout], [
        0,
        "Organisation 'demo' is now on plan BASIC.\n",
      ]);
      assert.equal((await owner("GET", "/panel/developers")).status, 200);
      assert.deepEqual(shownCommands((await owner("GET", "/panel/team")).html).map((c) => c.text), [
        "deno task cli org set-plan --slug demo --plan PRO",
      ]);
    });
  } finally {
    for (const run of context.running.values()) await run.stop();
    await context.receiver?.close();
    await server.stop();
    await session.close();
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(cwd, { recursive: true });
  }
});

/** The Quick Start's seven commands, run in one shell in order, each answering as its step. */
async function quickStartCommands(
  commands: { id: string | null; text: string }[],
  shell: ShellSession,
  context: Context,
) {
  assert.deepEqual(commands.map((command) => command.id), [
    "qs-curl-key",
    "qs-curl-offer",
    "qs-curl-webhook",
    "qs-curl-payment",
    "qs-curl-checkout",
    "qs-curl-complete",
    "qs-curl-watch",
  ]);
  const [key, offer, webhook, payment, checkout, complete, watch] = commands.map((c) => c.text);
  const run = async (text: string) => {
    const result = await shell.run(text);
    assert.equal(result.code, 0, `${text}\n${result.stderr}`);
    return jsonDocuments(result.stdout) as Record<string, unknown>[];
  };

  const [offers] = await run(key);
  assert.ok(Array.isArray(offers.data));

  assert.deepEqual(await run(offer), []);
  const qrId = await shell.variable("QR_ID");
  assert.match(qrId, /^qr_\w{24}$/);
  assert.equal((await api(context, `/api/v1/qr/${qrId}`)).body.name, "Quick Start coffee");

  const [endpoint] = await run(webhook);
  assert.deepEqual([endpoint.url, endpoint.events], [
    "https://your-server.example/webhooks/paystead",
    ["*"],
  ]);

  const [created] = await run(payment);
  assert.deepEqual([created.qrId, created.status], [qrId, "PENDING"]);

  // The README's blocks allowed localhost:3000: the PUT keeps it and adds the preview's origin.
  assert.deepEqual(await run(checkout), [
    { allowedOrigins: ["http://localhost:3000", context.api] },
  ]);
  const sessionId = await shell.variable("SESSION_ID");
  assert.match(sessionId, /^cs_\w{24}$/);

  const [completed] = await run(complete);
  assert.deepEqual([completed.sessionId, completed.status], [sessionId, "COMPLETED"]);

  const [events] = await run(watch);
  const [event] = events.data as { type: string; data: { sessionId: string } }[];
  assert.deepEqual([event.type, event.data.sessionId], ["checkout.session.completed", sessionId]);
}

/** What a reference curl answers as shown: JSON with these fields (`$NAME`: that id), or text. */
type Answer = { fields: Record<string, unknown> } | { text: RegExp };

/** The ids the reference's curls read, each naming a real object of the demo organisation. */
const ID_NAMES = [
  "QR_ID",
  "PAYMENT_ID",
  "SESSION_ID",
  "REFUND_ID",
  "SUBSCRIPTION_ID",
  "EVENT_ID",
  "ENDPOINT_ID",
] as const;
type Ids = Record<(typeof ID_NAMES)[number], string>;

/**
 * Each operation of the API reference and what its curl answers, run as shown with the ids set;
 * `fresh` names the id a call uses up (cancels, completes, deletes), made new for it (PAID: a
 * payment that succeeded). A new operation without an entry fails the test.
 */
const REFERENCE: Record<
  string,
  { answer: Answer; fresh?: "PAYMENT_ID" | "SESSION_ID" | "ENDPOINT_ID" | "PAID" }
> = {
  listReconciliations: { answer: { fields: { hasMore: false } } },
  createReconciliation: {
    answer: { fields: { matched: 0, fees: [{ amount: 62, currency: "PLN" }] } },
  },
  exportPayments: { answer: { text: /^\uFEFF?\S*paymentId/ } },
  exportRefunds: { answer: { text: /^\uFEFF?\S*refundId/ } },
  listOffers: { answer: { fields: { hasMore: false } } },
  createOffer: { answer: { fields: { name: "Monthly coffee box", amount: 4999 } } },
  getOffer: { answer: { fields: { qrId: "$QR_ID", name: "Kawa" } } },
  updateOffer: { answer: { fields: { qrId: "$QR_ID", name: "Kawa" } } },
  getOfferQrCode: { answer: { text: /<svg / } },
  listPayments: { answer: { fields: { hasMore: false } } },
  createPayment: { answer: { fields: { qrId: "$QR_ID", status: "PENDING" } } },
  getPayment: { answer: { fields: { paymentId: "$PAYMENT_ID", status: "PENDING" } } },
  cancelPayment: { answer: { fields: { status: "CANCELED" } }, fresh: "PAYMENT_ID" },
  completePayment: { answer: { fields: { status: "SUCCEEDED" } }, fresh: "PAYMENT_ID" },
  createPaymentAlias: { answer: { fields: { qrId: "$QR_ID", status: "PENDING" } } },
  listEvents: { answer: { fields: { hasMore: true } } },
  streamEvents: { answer: { text: /^retry: 2000\n: connected$/m } },
  getEvent: { answer: { fields: { id: "$EVENT_ID", type: "payment.created" } } },
  listPaymentRefunds: { answer: { fields: { hasMore: false } }, fresh: "PAID" },
  createRefund: { answer: { fields: { amount: 1250, status: "PENDING" } }, fresh: "PAID" },
  getRefund: { answer: { fields: { refundId: "$REFUND_ID" } } },
  listSubscriptions: { answer: { fields: { hasMore: false } } },
  getSubscription: { answer: { fields: { subscriptionId: "$SUBSCRIPTION_ID" } } },
  cancelSubscription: { answer: { fields: { subscriptionId: "$SUBSCRIPTION_ID" } } },
  getSandboxClock: { answer: { fields: {} } },
  // The README's block advanced the clock 30 days before: the answer counts every day.
  advanceSandboxClock: { answer: { fields: { advancedDays: 60 } } },
  listSandboxEmails: { answer: { fields: { hasMore: false } } },
  getCheckoutSession: {
    answer: { fields: { sessionId: "$SESSION_ID", status: "OPEN" } },
    fresh: "SESSION_ID",
  },
  createCheckoutSession: { answer: { fields: { qrId: "$QR_ID", status: "OPEN" } } },
  expireCheckoutSession: { answer: { fields: { status: "EXPIRED" } }, fresh: "SESSION_ID" },
  completeCheckoutSession: { answer: { fields: { status: "COMPLETED" } }, fresh: "SESSION_ID" },
  getCheckoutSettings: { answer: { fields: {} } },
  putCheckoutSettings: { answer: { fields: { allowedOrigins: ["https://shop.example"] } } },
  getBusinessDetails: { answer: { fields: { legalName: "Kawiarnia Testowa" } } },
  putBusinessDetails: { answer: { fields: { legalName: "Sklep Kowalski sp. z o.o." } } },
  listEventDeliveries: { answer: { fields: { hasMore: false } } },
  resendEvent: { answer: { fields: {} } },
  listWebhookEndpoints: { answer: { fields: { hasMore: false } } },
  createWebhookEndpoint: { answer: { fields: { url: "https://shop.example/webhooks/paystead" } } },
  getWebhookEndpoint: { answer: { fields: { id: "$ENDPOINT_ID" } } },
  updateWebhookEndpoint: { answer: { fields: { id: "$ENDPOINT_ID" } } },
  deleteWebhookEndpoint: { answer: { fields: {} }, fresh: "ENDPOINT_ID" },
  rotateWebhookEndpointSecret: { answer: { fields: {} } },
  recoverWebhookEvents: { answer: { fields: {} } },
  revealWebhookEndpointSecret: { answer: { fields: {} } },
  sendTestWebhook: { answer: { fields: { endpointId: "$ENDPOINT_ID", trigger: "TEST" } } },
  listWebhookEndpointRecords: { answer: { fields: { hasMore: false } } },
};

/** Runs the reference's curls as shown, each with the ids it reads set to real objects. */
async function referenceCommands(
  commands: { id: string | null; text: string }[],
  context: Context,
) {
  const post = async (path: string, body: unknown, method = "POST") => {
    const response = await api(context, path, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.ok(response.status < 300, `${path}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  // The example embedLink's origin, beside the README's.
  await post("/api/v1/checkout-settings", {
    allowedOrigins: ["http://localhost:3000", "https://shop.example"],
  }, "PUT");
  await post("/api/v1/business-details", {
    legalName: "Kawiarnia Testowa",
    address: { line1: "ul. Polna 2", postalCode: "00-002", city: "Warszawa", country: "PL" },
    contactEmail: "kawiarnia@example.pl",
    defaultLanguage: "pl",
    invoiceRequests: false,
  }, "PUT");
  const offer = await post("/api/v1/qr", { name: "Kawa", amount: 1250, currency: "PLN" });
  const payment = async () => (await post("/api/v1/payments", { qrId: offer.qrId })).paymentId;
  const paidPayment = async () => {
    const id = await payment();
    await post(`/api/v1/payments/${id}/complete`, { code: "777123" });
    return id;
  };
  const session = async () =>
    (await post(`/api/v1/checkout-sessions/${offer.qrId}`, {
      embedLink: "http://localhost:3000/shop",
    })).sessionId;
  const endpoint = async () =>
    (await post("/api/v1/webhook-endpoints", { url: "http://localhost:3000/hooks" })).id;
  const monthly = await post("/api/v1/qr", {
    name: "Kawa co miesiąc",
    amount: 3000,
    currency: "PLN",
    recurring: { interval: "MONTH" },
  });
  const subscribed = (await post("/payments", { qrId: monthly.qrId })).paymentId;
  await post(`/api/v1/payments/${subscribed}/complete`, { code: "777123" });
  const refunded = await paidPayment();
  // createReconciliation's curl sends request.csv: a PayU statement with a commission only.
  const folder = await Deno.makeTempDir({ prefix: "paystead-reference-" });
  await Deno.writeTextFile(
    `${folder}/request.csv`,
    payuStatement([{ date: "2026-11-21", amount: "-0,62", type: "Prowizja" }]),
  );
  const ids: Ids = {
    QR_ID: offer.qrId,
    PAYMENT_ID: await payment(),
    SESSION_ID: await session(),
    REFUND_ID: (await post(`/api/v1/payments/${refunded}/refunds`, { amount: 500 })).refundId,
    SUBSCRIPTION_ID: (await api(context, "/api/v1/subscriptions")).body.data[0].subscriptionId,
    EVENT_ID: (await api(context, "/api/v1/events?type=payment.created&limit=1")).body.data[0].id,
    ENDPOINT_ID: await endpoint(),
  };
  const make = {
    PAYMENT_ID: payment,
    SESSION_ID: session,
    ENDPOINT_ID: endpoint,
    PAID: paidPayment,
  };

  const shown = commands.map((command) => command.id?.replace(/^curl-/, ""));
  assert.deepEqual(shown.toSorted(), Object.keys(REFERENCE).toSorted(), "an answer per operation");
  // Every operation is run before any is judged, so one run names every curl that went wrong.
  const wrong: string[] = [];
  for (const command of commands) {
    const operation = command.id!.replace(/^curl-/, "");
    const { answer, fresh } = REFERENCE[operation];
    const env: Record<string, string> = {
      ...ids,
      PAYSTEAD_KEY: context.key,
      REQUEST_DIR: folder,
    };
    if (fresh) env[fresh === "PAID" ? "PAYMENT_ID" : fresh] = await make[fresh]();
    const stdout = await runShown(operation, command.text, env);
    const problem = judge(answer, stdout, env);
    if (problem) wrong.push(`${operation}: ${problem}`);
  }
  await Deno.remove(folder, { recursive: true });
  assert.deepEqual(wrong, []);
}

async function runShown(operation: string, text: string, env: Record<string, string>) {
  if (operation !== "streamEvents") {
    const result = await bash(text, { env, cwd: env.REQUEST_DIR });
    return result.code === 0 ? result.stdout : `exit ${result.code}: ${result.stderr}`;
  }
  // A stream does not end: it runs until it has said something, then stops.
  const session = await ShellSession.open(root, env);
  const stream = session.start(text);
  try {
    await stream.waitFor(/^: connected$/m, 20_000);
  } finally {
    await stream.stop();
    await session.close();
  }
  return stream.stdout();
}

/** Why `stdout` is not `answer`, or null when it is. */
function judge(answer: Answer, stdout: string, env: Record<string, string>): string | null {
  if ("text" in answer) return answer.text.test(stdout) ? null : stdout.slice(0, 300);
  let body;
  try {
    body = JSON.parse(stdout || "{}");
  } catch {
    return stdout.slice(0, 300);
  }
  if (body.error) return stdout.slice(0, 300);
  for (const [field, value] of Object.entries(answer.fields)) {
    const expected = typeof value === "string" && value.startsWith("$")
      ? env[value.slice(1)]
      : value;
    if (JSON.stringify(body[field]) !== JSON.stringify(expected)) {
      return `${field} is ${JSON.stringify(body[field])}: ${stdout.slice(0, 300)}`;
    }
  }
  return null;
}
