import assert from "node:assert/strict";
import { migrate, openStore, type Store } from "../../db/client.ts";
import { accountsMigrations, environmentMigrations } from "../../db/migrations/mod.ts";
import type { AccountsSchema, EnvironmentSchema } from "../../db/schema.ts";
import { createOrganisation } from "../../lib/accounts/organisations.ts";
import { createApiKey } from "../../lib/api_keys.ts";
import { ManualClock } from "../../lib/clock.ts";
import { type Config, type Environment, loadConfig } from "../../lib/config.ts";
import type { EmailSenderOptions } from "../../lib/emails/sender.ts";
import type { EventStreamOptions } from "../../lib/event_stream.ts";
import { type Logger, silentLogger } from "../../lib/log.ts";
import { type PasswordHasher, scryptHasher } from "../../lib/passwords.ts";
import type { Plan } from "../../lib/plans.ts";
import type { PaymentProvider } from "../../lib/providers/mod.ts";
import { createFakePayu, type FakePayu, type FakePayuSwitchesPatch } from "../../fakes/payu/mod.ts";
import type { Fetch } from "../../lib/providers/payu/http.ts";
import type { PayuTimeouts } from "../../lib/providers/payu/provider.ts";
import { SandboxProvider } from "../../lib/providers/sandbox.ts";
import type { HostResolver } from "../../lib/webhooks/address_policy.ts";
import type { WebhookDeliveryOptions } from "../../lib/webhooks/delivery/dispatcher.ts";
import { PAYU_TEST_ENV } from "./processes.ts";
import { createApp, type PaysteadApp } from "../../routes/app.ts";

/** A fresh app on temporary file databases, with one organisation and one API key. */
export interface TestApp extends PaysteadApp {
  config: Config;
  clock: ManualClock;
  store: Store<EnvironmentSchema>;
  accounts: Store<AccountsSchema>;
  dataDir: string;
  orgId: number;
  apiKey: string;
  /**
   * Production's PayU: the in-process fake the app's PayU adapter talks to (its notifications
   * are posted to the app); null in the sandbox or when the test passed its own provider.
   */
  payu: FakePayu | null;
  /** Sends a request with the organisation's API key and a JSON body. */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  /** Closes the databases and removes the temporary directory. */
  close(): Promise<void>;
}

/**
 * Scrypt at an eighth of production's cost: a panel test signs in often and production's half a
 * second each would make the suite crawl. Tests of hashing itself, and every real server, use
 * production's `scryptPasswords`.
 */
export const TEST_PASSWORDS: PasswordHasher = scryptHasher({ N: 2 ** 14, r: 8, p: 1 });

/** Builds a test app. Databases are temporary files: libSQL's :memory: loses tables. */
export async function makeTestApp(options: {
  environment?: Environment;
  plan?: Plan;
  provider?: PaymentProvider;
  env?: Record<string, string>;
  resolveHost?: HostResolver;
  webhooks?: WebhookDeliveryOptions;
  /** Wraps the environment store the app writes through (to make its writes fail). */
  wrapStore?: (store: Store<EnvironmentSchema>) => Store<EnvironmentSchema>;
  passwords?: PasswordHasher;
  eventStreams?: EventStreamOptions;
  /** Switches of production's fake PayU (notifications at once by default). */
  payuSwitches?: FakePayuSwitchesPatch;
  /** Wraps how the adapter reaches the fake (to count, refuse or slow calls). */
  payuFetch?: (fake: Fetch) => Fetch;
  payuTimeouts?: Partial<PayuTimeouts>;
  /** Where the app logs (nowhere by default). */
  log?: Logger;
  emails?: EmailSenderOptions;
} = {}): Promise<TestApp> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-test-" });
  const environment = options.environment ?? "sandbox";
  const config = loadConfig({
    PAYSTEAD_ENV: environment,
    DATA_DIR: dataDir,
    PUBLIC_URL: environment === "sandbox" ? "http://sandbox.test" : "https://api.paystead.test",
    SANDBOX_PUBLIC_URL: "http://sandbox.test",
    PRODUCTION_PUBLIC_URL: "https://api.paystead.test",
    // The manual clock never refills a rate bucket; tests of the limit set their own.
    RATE_LIMIT_PER_SECOND: "1000000",
    // Test receivers listen on 127.0.0.1, and this sandbox's PUBLIC_URL is not loopback.
    ...(environment === "sandbox" ? { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } : {}),
    ...(environment === "production" && PAYU_TEST_ENV),
    ...options.env,
  });
  const accounts = await openStore<AccountsSchema>(config.accountsDatabaseUrl);
  const store = await openStore<EnvironmentSchema>(config.databaseUrl);
  await migrate(accounts, accountsMigrations);
  await migrate(store, environmentMigrations);
  const clock = new ManualClock();
  const org = await createOrganisation(
    accounts,
    { slug: "acme", name: "Acme", plan: options.plan ?? "BASIC" },
    clock.now(),
  );
  const key = await createApiKey(store, {
    orgId: org.id,
    name: "test",
    environment,
    now: clock.now(),
  });
  // NOTE: production runs PayU's adapter against the fake, never the simulator; the fake's
  // notifications reach the app as PayU's reach /providers/payu/notify.
  const target: { app?: PaysteadApp } = {};
  const payu = environment === "production" && !options.provider
    ? createFakePayu({
      switches: { notifyDelayMs: 0, notifyRetryDelaysMs: [0, 0, 0], ...options.payuSwitches },
      notifyFetch: async (request) => await target.app!.app.request(request),
    })
    : null;
  const built = createApp({
    config,
    store: options.wrapStore?.(store) ?? store,
    accounts,
    clock,
    provider: options.provider ?? (payu ? undefined : new SandboxProvider()),
    providerOptions: payu
      ? {
        fetch: options.payuFetch ? options.payuFetch(payu.fetch) : payu.fetch,
        timeouts: options.payuTimeouts,
      }
      : undefined,
    log: options.log ?? silentLogger,
    resolveHost: options.resolveHost,
    webhooks: options.webhooks,
    passwords: options.passwords ?? TEST_PASSWORDS,
    eventStreams: options.eventStreams,
    emails: options.emails,
  });
  target.app = built;
  return {
    ...built,
    config,
    clock,
    store,
    accounts,
    dataDir,
    orgId: org.id,
    apiKey: key.secret,
    payu,
    request(method, path, body, headers = {}) {
      return Promise.resolve(built.app.request(path, {
        method,
        headers: {
          authorization: `Bearer ${key.secret}`,
          ...(body !== undefined && { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined
          ? undefined
          : typeof body === "string"
          ? body
          : JSON.stringify(body),
      }));
    },
    async close() {
      built.services.eventStreams.close();
      payu?.close();
      await built.services.scheduler.stop();
      await built.webhooks.stop();
      await built.emails.stop();
      await store.close();
      await accounts.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/** Another organisation ("globex", PRO) with a sandbox key, for tests of isolation. */
export async function createOtherOrganisation(t: TestApp) {
  const org = await createOrganisation(
    t.accounts,
    { slug: "globex", name: "Globex", plan: "PRO" },
    0,
  );
  const key = await createApiKey(t.store, {
    orgId: org.id,
    name: "globex",
    environment: "sandbox",
    now: 0,
  });
  return { org, key };
}

/** Creates an offer through the API and returns its body. */
export async function createTestOffer(
  t: TestApp,
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { qrId: string }> {
  const response = await t.request("POST", "/api/v1/qr", {
    name: "Coffee",
    amount: 1250,
    currency: "PLN",
    ...fields,
  });
  if (response.status !== 201) {
    throw new Error(`offer: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

/** Creates a payment for an offer through the API and returns its body. */
export async function createTestPayment(
  t: TestApp,
  qrId: string,
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { paymentId: string; status: string }> {
  const response = await t.request("POST", "/api/v1/payments", { qrId, ...fields });
  if (response.status !== 201) {
    throw new Error(`payment: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

/** Asserts an error response: status, JSON content type, type, code, message and request id. */
export async function expectError(
  response: Response,
  status: number,
  type: string,
  code: string,
  message?: string,
) {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("content-type"), "application/json");
  const body = await response.json();
  assert.equal(body.error.type, type);
  assert.equal(body.error.code, code);
  if (message !== undefined) assert.equal(body.error.message, message);
  assert.match(body.error.requestId, /^req_[0-9A-Za-z]{24}$/);
  assert.equal(body.error.requestId, response.headers.get("request-id"));
  return body;
}
