/**
 * Every command the README shows runs as shown: each ```sh block goes through `bash -c` with its
 * exact text, in README order, against a real server (a shell session carries the variables one
 * block sets to the next, as one terminal would). A block no test runs fails the test. The
 * panel's commands: tests/panel_commands_test.ts.
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { demoApiKey, freePort, runCli, startPaystead } from "./support/processes.ts";
import {
  apiCall,
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
  "Other methods #0": otherMethods,
  "Refunds, subscriptions and the sandbox clock #0": refundAndClock,
  "Embedded checkout #0": embeddedCheckout,
  "Webhooks #0": webhookEndpoint,
  "Developer tools #0": listenStarts,
  "Developer tools #1": triggerIsForwarded,
  "Trying production locally with a fake PayU #0": fakePayuStarts,
  "Trying production locally with a fake PayU #1": productionUsesTheFake,
};

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

async function otherMethods(text: string, context: Context) {
  const result = await ran(context, text);
  const printed = result.stdout.trim().split("\n");
  assert.deepEqual(printed, [
    '["blik","transfer","card","google_pay","apple_pay"]',
    '{"status":"SUCCEEDED","paymentMethod":"transfer","bank":"test_bank_a"}',
  ]);
  assertPrintedAsShown(text, result.stdout);
}

async function paymentInThreeCalls(text: string, context: Context) {
  const result = await ran(context, text);
  const qr = await context.session.variable("QR");
  const pay = await context.session.variable("PAY");
  assert.match(qr, /^qr_\w{24}$/);
  assert.match(pay, /^pay_\w{30}$/);
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
  assert.match(String(refund.refundId), /^re_\w{30}$/);
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
  assert.match(String(session.sessionId), /^cs_\w{30}$/);
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
  const endpoint = await apiCall(context, `/api/v1/webhook-endpoints/${endpointId}`);
  assert.deepEqual([endpoint.body.url, endpoint.body.events], [
    "http://localhost:3000/webhooks",
    ["payment.*", "refund.*"],
  ]);
  assert.equal(
    (await apiCall(context, `/api/v1/webhook-endpoints/${endpointId}/secret`)).body.secret,
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

Deno.test("[readme] the README's shell blocks, pasted in order, work against a real server", async (t) => {
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
  } finally {
    for (const run of context.running.values()) await run.stop();
    await context.receiver?.close();
    await server.stop();
    await session.close();
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(cwd, { recursive: true });
  }
});
