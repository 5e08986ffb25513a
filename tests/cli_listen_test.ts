import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { verifyWebhook } from "../examples/verify_webhook.ts";
import { demoApiKey, freePort, runCli, shippedArgs, startPaystead } from "./support/processes.ts";

/** A request the local receiver got. */
interface Received {
  url: string;
  id: string;
  headers: Record<string, string>;
  body: string;
}

/** A running `listen` process and what it printed. */
class ListenProcess {
  readonly process: Deno.ChildProcess;
  output = "";
  #reading: Promise<void>;

  constructor(args: string[]) {
    const process = new Deno.Command(Deno.execPath(), {
      args: shippedArgs("cli", ["listen", ...args]),
      env: { PUBLIC_URL: "http://127.0.0.1:1" },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.process = process;
    const decoder = new TextDecoder();
    this.#reading = (async () => {
      for await (const chunk of process.stdout) {
        this.output += decoder.decode(chunk, { stream: true });
      }
    })();
  }

  /** Waits until the output matches `pattern`; returns the match. */
  async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    for (let waited = 0; waited < 30_000; waited += 20) {
      const match = pattern.exec(this.output);
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`listen never printed ${pattern}:\n${this.output}`);
  }

  async stop(signal: Deno.Signal): Promise<Deno.CommandStatus> {
    this.process.kill(signal);
    const status = await this.process.status;
    await this.#reading;
    return status;
  }
}

Deno.test("[cli] listen forwards every event once, in order, across restarts; trigger makes events", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-listen-" });
  const server = await startPaystead(`${dataDir}/server`);
  const received: Received[] = [];
  let failNext = 1;
  const receiverPort = freePort();
  const receiver = Deno.serve(
    { port: receiverPort, hostname: "127.0.0.1", onListen() {} },
    async (request) => {
      const body = await request.text();
      // The first request fails once: listen retries it without losing its place.
      if (failNext-- > 0) return new Response("not yet", { status: 500 });
      received.push({
        url: request.url,
        id: request.headers.get("webhook-id")!,
        headers: Object.fromEntries(request.headers),
        body,
      });
      return new Response(null, { status: 204 });
    },
  );
  const apiKey = await demoApiKey(server);
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((response) => response.json());
  const forwardTo = `http://127.0.0.1:${receiverPort}/hooks/paystead?source=cli&x=1`;
  const args = [
    "--forward-to",
    forwardTo,
    "--api-key",
    apiKey,
    "--host",
    server.url,
    "--data-dir",
    `${dataDir}/cli`,
    "--headers",
    "X-Test: yes",
  ];
  try {
    const offer = await api("POST", "/api/v1/qr", { name: "Tea", amount: 900, currency: "PLN" });
    const pay = () => api("POST", "/api/v1/payments", { qrId: offer.qrId });
    // One event before listen ever ran: it starts from now, so this one is not forwarded.
    await pay();
    const before = (await api("GET", "/api/v1/events?limit=1")).data[0].id;

    let listener = new ListenProcess(args);
    const secret = (await listener.waitFor(/signing secret: (whsec_\S+)/))[1];
    await listener.waitFor(/^Connected\.$/m);
    for (let index = 0; index < 3; index++) await pay();
    await listener.waitFor(/<-- 204 .*\n(.|\n)*<-- 204 .*\n(.|\n)*<-- 204/);
    assert.match(listener.output, /<-- 500 \d+ ms/);
    assert.match(listener.output, /--> payment\.created evt_\w+ \(retry 1\)/);

    // Ctrl-C stops it cleanly; events keep happening while it is down.
    assert.equal((await listener.stop("SIGINT")).code, 0);
    assert.match(listener.output, /Stopped\.\n$/);
    for (let index = 0; index < 3; index++) await pay();

    listener = new ListenProcess(args);
    assert.equal((await listener.waitFor(/signing secret: (whsec_\S+)/))[1], secret);
    await listener.waitFor(/Connected; resuming after evt_\w+\./);
    const triggered = await runCli([
      "trigger",
      "payment.succeeded",
      "--api-key",
      apiKey,
      "--host",
      server.url,
    ]);
    assert.equal(triggered.code, 0, triggered.stderr);
    assert.match(triggered.stdout, /offer +qr_\w+\npayment +pay_\w+ \(paid with 777123\)/);
    assert.match(triggered.stdout, /Triggered payment\.succeeded\.$/);
    await listener.waitFor(/--> payment\.succeeded evt_\w+/);

    // kill -9 while events keep coming, then resume.
    const racing = Promise.all([pay(), pay(), pay()]);
    await listener.stop("SIGKILL");
    await racing;
    await pay();
    listener = new ListenProcess(args);
    await listener.waitFor(/Connected; resuming after evt_\w+\./);

    const all = (await api("GET", `/api/v1/events?order=asc&limit=100&startingAfter=${before}`))
      .data.map((event: { id: string }) => event.id);
    for (let waited = 0; new Set(received.map((r) => r.id)).size < all.length; waited += 20) {
      assert.ok(waited < 30_000, `only ${received.length} of ${all.length} arrived`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal((await listener.stop("SIGINT")).code, 0);

    // Every event arrived, in order; only a kill -9 may repeat the one it interrupted.
    const firstArrivals = received.filter((r, index) =>
      received.findIndex((other) => other.id === r.id) === index
    );
    assert.deepEqual(firstArrivals.map((r) => r.id), all);
    assert.ok(received.length - all.length <= 1, `${received.length - all.length} repeats`);
    const webhook = new Webhook(secret);
    for (const request of received) {
      assert.equal(request.url, forwardTo);
      assert.equal(request.headers["x-test"], "yes");
      assert.equal(request.headers["content-type"], "application/json");
      const stored = await fetch(`${server.url}/api/v1/events/${request.id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      }).then((response) => response.text());
      assert.equal(request.body, stored);
      assert.deepEqual(webhook.verify(request.body, request.headers), JSON.parse(stored));
    }

    const unknown = await runCli([
      "trigger",
      "payment.done",
      "--api-key",
      apiKey,
      "--host",
      server.url,
    ]);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stdout,
      /Unknown event 'payment\.done'\. Known events:\n {2}payment\.succeeded/,
    );
    assert.match(unknown.stdout, /subscription\.past_due/);
  } finally {
    await receiver.shutdown();
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[cli] listen --endpoint signs with that endpoint's secret, so the README's receiver verifies it", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-listen-endpoint-" });
  const server = await startPaystead(`${dataDir}/server`);
  const verdicts: string[] = [];
  let endpointSecret = "";
  const receiverPort = freePort();
  const receiver = Deno.serve(
    { port: receiverPort, hostname: "127.0.0.1", onListen() {} },
    async (request) => {
      const event = await verifyWebhook<{ type: string }>(
        await request.text(),
        request.headers,
        endpointSecret,
      ).catch(() => null);
      // The endpoint's own deliveries arrive too, on another path: only listen's count here.
      if (new URL(request.url).pathname === "/listen") {
        verdicts.push(event ? event.type : "invalid signature");
      }
      return new Response(null, { status: event ? 204 : 400 });
    },
  );
  const apiKey = await demoApiKey(server);
  const api = (path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((response) => response.json());
  const forwardTo = `http://127.0.0.1:${receiverPort}/listen`;
  const common = ["--forward-to", forwardTo, "--api-key", apiKey, "--host", server.url];
  try {
    const endpoint = await api("/api/v1/webhook-endpoints", {
      url: `http://127.0.0.1:${receiverPort}/webhooks`,
    });
    endpointSecret = endpoint.secret;
    const offer = await api("/api/v1/qr", { name: "Tea", amount: 900, currency: "PLN" });

    // Without --endpoint, listen says its secret is its own.
    let listener = new ListenProcess([...common, "--data-dir", `${dataDir}/own`]);
    await listener.waitFor(/^Connected\.$/m);
    assert.match(listener.output, /This is listen's own secret, not a webhook endpoint's/);
    await api("/api/v1/payments", { qrId: offer.qrId });
    await listener.waitFor(/<-- 400 /);
    await listener.stop("SIGKILL");
    assert.equal(verdicts.at(-1), "invalid signature");

    listener = new ListenProcess([
      ...common,
      "--data-dir",
      `${dataDir}/endpoint`,
      "--endpoint",
      endpoint.id,
    ]);
    await listener.waitFor(/^Connected\.$/m);
    assert.match(
      listener.output,
      new RegExp(`Signing with the secret of webhook endpoint ${endpoint.id}`),
    );
    await api("/api/v1/payments", { qrId: offer.qrId });
    await listener.waitFor(/<-- 204 /);
    assert.equal((await listener.stop("SIGINT")).code, 0);
    assert.equal(verdicts.at(-1), "payment.created");
  } finally {
    await receiver.shutdown();
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
