import { openStore } from "../../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../../db/schema.ts";
import { createOrganisation } from "../../lib/accounts/organisations.ts";
import { createApiKey } from "../../lib/api_keys.ts";
import { silentLogger } from "../../lib/log.ts";
import type {
  AttemptReference,
  AuthorizationRequest,
  PaymentProvider,
  RecurringChargeRequest,
  RecurringCharges,
  RefundAnswer,
  RefundRequest,
} from "../../lib/providers/mod.ts";
import { SandboxProvider } from "../../lib/providers/sandbox.ts";
import { createApp, type PaysteadApp } from "../../routes/app.ts";
import { createTestOffer, createTestPayment, type TestApp } from "./helpers.ts";

/** What the provider should do after carrying out the next refund or charge. */
type Fault = "lose-answer" | "hang";

/**
 * The sandbox provider as a real one behaves: each idempotency key is carried out once and
 * later calls with it get the first answer. Records every call, counts what was carried out,
 * and can lose or hold back the answer of the next call to simulate a crash.
 */
export class RecordingProvider implements PaymentProvider {
  readonly name = "recording";
  readonly #sandbox = new SandboxProvider();
  readonly health = this.#sandbox.health;
  readonly orderValidityMs = this.#sandbox.orderValidityMs;
  readonly notifications = null;
  readonly statements = this.#sandbox.statements;
  readonly status = this.#sandbox.status;
  readonly connectionTest = null;
  readonly renewals: RecurringCharges = {
    chargeRecurring: (request) =>
      this.#once(request, () => this.#sandbox.renewals.chargeRecurring(request)),
  };
  readonly #results = new Map<string, Promise<unknown>>();
  #faults: Fault[] = [];
  #released: Promise<void> = Promise.resolve();
  #release: () => void = () => {};
  #reached: () => void = () => {};
  #paused: Promise<void> = Promise.resolve();
  /** Idempotency keys in the order calls arrived. */
  readonly calls: string[] = [];
  /** Refunds and charges carried out (a key carried out twice would be money moved twice). */
  readonly carriedOut: (RefundRequest | RecurringChargeRequest)[] = [];
  /** Milliseconds each call waits before answering, so concurrent processes interleave. */
  delayMs = 0;

  /** Makes the next refund or charge lose its answer (throw) or hold it until `release()`. */
  failNext(fault: Fault): Promise<void> {
    this.#faults.push(fault);
    if (fault === "hang") {
      this.#released = new Promise((resolve) => (this.#release = resolve));
    }
    return new Promise((resolve) => (this.#reached = resolve));
  }

  /** Lets a held answer through. */
  release(): void {
    this.#release();
  }

  /** Holds back every answer until the returned function is called. */
  pause(): () => void {
    let resume!: () => void;
    this.#paused = new Promise((resolve) => (resume = resolve));
    return resume;
  }

  doctorChecks() {
    return this.#sandbox.doctorChecks();
  }
  paymentMethods(...args: Parameters<SandboxProvider["paymentMethods"]>) {
    return this.#sandbox.paymentMethods(...args);
  }

  authorize(request: AuthorizationRequest) {
    return this.#sandbox.authorize(request);
  }

  lookup(attempt: AttemptReference) {
    return this.#sandbox.lookup(attempt);
  }

  cancel() {
    return this.#sandbox.cancel();
  }

  refund(request: RefundRequest): Promise<RefundAnswer> {
    return this.#once(request, () => this.#sandbox.refund(request));
  }

  lookupRefund(request: RefundRequest & { reference: string | null }) {
    return this.#sandbox.lookupRefund(request);
  }

  async #once<T>(request: RefundRequest | RecurringChargeRequest, run: () => Promise<T>) {
    this.calls.push(request.idempotencyKey);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    let result = this.#results.get(request.idempotencyKey) as Promise<T> | undefined;
    if (!result) {
      this.carriedOut.push(request);
      result = run();
      this.#results.set(request.idempotencyKey, result);
    }
    const fault = this.#faults.shift();
    this.#reached();
    if (fault === "lose-answer") throw new Error("connection reset after the provider answered");
    if (fault === "hang") await this.#released;
    await this.#paused;
    return await result;
  }
}

/**
 * The sandbox simulator as a provider that cannot charge a stored method (PayU's capability),
 * so renewals go by link; counts the codes that reached it.
 */
export class LinkOnlyProvider implements PaymentProvider {
  readonly #sandbox = new SandboxProvider();
  readonly name = "link-only";
  readonly health = this.#sandbox.health;
  readonly orderValidityMs = this.#sandbox.orderValidityMs;
  readonly renewals = null;
  readonly notifications = null;
  readonly statements = this.#sandbox.statements;
  readonly status = this.#sandbox.status;
  readonly connectionTest = null;
  /** The payments whose codes reached the provider, in order. */
  readonly authorized: string[] = [];

  doctorChecks() {
    return this.#sandbox.doctorChecks();
  }

  paymentMethods(...args: Parameters<SandboxProvider["paymentMethods"]>) {
    return this.#sandbox.paymentMethods(...args);
  }

  authorize(request: AuthorizationRequest) {
    this.authorized.push(request.paymentId);
    return this.#sandbox.authorize(request);
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

/**
 * A second process of the same environment: its own connections to the test app's files. With
 * `timers` its scheduler runs jobs by itself, as the server's does.
 */
export async function secondProcess(
  t: TestApp,
  provider: PaymentProvider,
  options: { timers?: boolean } = {},
): Promise<PaysteadApp & { close(): Promise<void> }> {
  const store = await openStore<EnvironmentSchema>(t.config.databaseUrl);
  const accounts = await openStore<AccountsSchema>(t.config.accountsDatabaseUrl);
  const built = createApp({
    config: t.config,
    store,
    accounts,
    clock: t.clock,
    provider,
    log: silentLogger,
    timers: options.timers,
  });
  return {
    ...built,
    async close() {
      await built.services.scheduler.stop();
      await store.close();
      await accounts.close();
    },
  };
}

/** What a second process's provider was asked. */
export interface SecondProcessReport {
  calls: string[];
  carriedOut: RecurringChargeRequest[];
}

/** What the deno runtime itself reads: where its cache is, how it reaches the registry. */
const RUNTIME_VARIABLES = [
  "HOME",
  "PATH",
  "TMPDIR",
  "DENO_DIR",
  "XDG_CACHE_HOME",
  "NPM_CONFIG_REGISTRY",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "DENO_CERT",
];

function passThrough(names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/**
 * Starts a real second process (tests/support/second_process.ts) over the test app's databases, on the
 * test clock's time, and resolves once it is ready. `run()` makes it run its jobs once and
 * resolves with what its provider was asked.
 */
export async function spawnSecondProcess(
  t: TestApp,
  providerDelayMs: number,
): Promise<{ run(): Promise<SecondProcessReport> }> {
  const root = new URL("../..", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-ffi",
      "--allow-sys",
      "tests/support/second_process.ts",
      String(t.clock.now()),
      String(providerDelayMs),
    ],
    cwd: root,
    clearEnv: true,
    env: {
      PAYSTEAD_ENV: t.config.environment,
      DATABASE_URL: t.config.databaseUrl,
      ACCOUNTS_DATABASE_URL: t.config.accountsDatabaseUrl,
      PUBLIC_URL: t.config.publicUrl,
      SANDBOX_PUBLIC_URL: t.config.sandboxPublicUrl,
      PRODUCTION_PUBLIC_URL: t.config.productionPublicUrl,
      ...passThrough(RUNTIME_VARIABLES),
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const output = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const readUntil = async (done: (text: string) => boolean) => {
    while (!done(text)) {
      const chunk = await output.read();
      if (chunk.done) return;
      text += chunk.value;
    }
  };
  await readUntil((text) => text.includes("ready\n"));
  if (!text.includes("ready\n")) {
    await child.status;
    throw new Error(`The second process did not start: ${text}`);
  }
  return {
    async run() {
      const input = child.stdin.getWriter();
      await input.write(new TextEncoder().encode("run\n"));
      await input.close();
      await readUntil(() => false);
      const status = await child.status;
      if (!status.success) throw new Error(`The second process failed: ${text}`);
      return JSON.parse(text.trim().split("\n").at(-1)!);
    },
  };
}

/** A second organisation in the test app's databases, with its own sandbox key. */
export async function otherOrganisation(
  t: TestApp,
): Promise<{ orgId: number; request: TestApp["request"] }> {
  const org = await createOrganisation(
    t.accounts,
    { slug: "globex", name: "Globex", plan: "BASIC" },
    t.clock.now(),
  );
  const key = await createApiKey(t.store, {
    orgId: org.id,
    name: "other",
    environment: t.config.environment,
    now: t.clock.now(),
  });
  return {
    orgId: org.id,
    request: (method, path, body, headers = {}) =>
      t.request(method, path, body, { ...headers, authorization: `Bearer ${key.secret}` }),
  };
}

/** Creates an offer and a payment for it, and pays it with the sandbox's success code. */
export async function paidPayment(
  t: TestApp,
  offer: Record<string, unknown> = {},
  payment: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { paymentId: string; qrId: string; amount: number }> {
  const { qrId } = await createTestOffer(t, offer);
  const { paymentId } = await createTestPayment(t, qrId, payment);
  const response = await t.request("POST", `/api/v1/payments/${paymentId}/complete`, {
    code: "777123",
  });
  const body = await response.json();
  if (response.status !== 200 || body.status !== "SUCCEEDED") {
    throw new Error(`complete: ${response.status} ${JSON.stringify(body)}`);
  }
  return body;
}

/** The organisation's events of `type`, oldest first. */
export async function eventsOf(
  t: TestApp,
  type: string,
): Promise<{ id: string; type: string; createdAt: string; data: Record<string, unknown> }[]> {
  const response = await t.request("GET", `/api/v1/events?type=${type}&limit=100`);
  if (response.status !== 200) throw new Error(`events: ${response.status}`);
  const body = await response.json();
  return body.data.reverse();
}

/** GETs a path and returns the JSON body, failing unless the status is 200. */
export async function getJson(
  t: TestApp,
  path: string,
): Promise<Record<string, unknown>> {
  const response = await t.request("GET", path);
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
  return await response.json();
}
