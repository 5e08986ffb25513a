/**
 * Every command the panel shows runs as shown: taken from the HTML a signed-in owner of a real
 * server is served, run through `bash -c`, each asserted to answer as its step or operation says.
 * A panel file that starts rendering a command fails the test until a step here runs it.
 */
import assert from "node:assert/strict";
import { csrfTokenOf } from "../lib/accounts/sessions.ts";
import { DEMO_OWNER_EMAIL } from "../lib/demo.ts";
import { payuStatement } from "./support/payu_statement.ts";
import { type ChildServer, demoApiKey, runCli, startPaystead } from "./support/processes.ts";
import { apiCall, type ApiTarget, bash, jsonDocuments, ShellSession } from "./support/readme.ts";

const root = new URL("../", import.meta.url).pathname;

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

Deno.test("[panel commands] every panel file that renders a command has a step that runs it", async () => {
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

Deno.test("[panel commands] what the panel shows to paste runs as shown against a real server", async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-panel-commands-" });
  const server = await startPaystead(dataDir);
  const context: ApiTarget = { api: server.url, key: await demoApiKey(server) };
  try {
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
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});

/** The Quick Start's seven commands, run in one shell in order, each answering as its step. */
async function quickStartCommands(
  commands: { id: string | null; text: string }[],
  shell: ShellSession,
  context: ApiTarget,
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
  assert.equal((await apiCall(context, `/api/v1/qr/${qrId}`)).body.name, "Quick Start coffee");

  const [endpoint] = await run(webhook);
  assert.deepEqual([endpoint.url, endpoint.events], [
    "https://your-server.example/webhooks/paystead",
    ["*"],
  ]);

  const [created] = await run(payment);
  assert.deepEqual([created.qrId, created.status], [qrId, "PENDING"]);

  // The allowlist was empty: the PUT before the session's curl adds the preview's origin.
  assert.deepEqual(await run(checkout), [{ allowedOrigins: [context.api] }]);
  const sessionId = await shell.variable("SESSION_ID");
  assert.match(sessionId, /^cs_\w{30}$/);

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
  // Events keep coming (refunds settle, renewals): a list of them, however long.
  listEvents: { answer: { text: /^\{"data":\[\{"id":"evt_\w+","type":"/ } },
  streamEvents: { answer: { text: /^retry: 2000\n: connected$/m } },
  getEvent: { answer: { fields: { id: "$EVENT_ID", type: "payment.created" } } },
  listPaymentRefunds: { answer: { fields: { hasMore: false } }, fresh: "PAID" },
  listPaymentAttempts: { answer: { fields: { hasMore: false } }, fresh: "PAID" },
  listPaymentMethods: { answer: { text: /^\{"data":\[\{"method":"blik","flow":"code"/ } },
  createRefund: { answer: { fields: { amount: 1250, status: "PENDING" } }, fresh: "PAID" },
  getRefund: { answer: { fields: { refundId: "$REFUND_ID" } } },
  listSubscriptions: { answer: { fields: { hasMore: false } } },
  getSubscription: { answer: { fields: { subscriptionId: "$SUBSCRIPTION_ID" } } },
  cancelSubscription: { answer: { fields: { subscriptionId: "$SUBSCRIPTION_ID" } } },
  getSandboxClock: { answer: { fields: {} } },
  advanceSandboxClock: { answer: { fields: { advancedDays: 30 } } },
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
  context: ApiTarget,
) {
  const post = async (path: string, body: unknown, method = "POST") => {
    const response = await apiCall(context, path, {
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
    payuStatement([{ date: "2026-11-21", amount: "-0,62", type: "r" }]),
  );
  const ids: Ids = {
    QR_ID: offer.qrId,
    PAYMENT_ID: await payment(),
    SESSION_ID: await session(),
    REFUND_ID: (await post(`/api/v1/payments/${refunded}/refunds`, { amount: 500 })).refundId,
    SUBSCRIPTION_ID: (await apiCall(context, "/api/v1/subscriptions")).body.data[0].subscriptionId,
    EVENT_ID:
      (await apiCall(context, "/api/v1/events?type=payment.created&limit=1")).body.data[0].id,
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
