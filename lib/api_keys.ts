import { createHash, timingSafeEqual } from "node:crypto";
import {
  findApiKey,
  findApiKeyByHash,
  insertApiKey,
  listApiKeys,
  touchApiKey,
  updateApiKeyValidity,
} from "../db/api_keys.ts";
import type { Store } from "../db/client.ts";
import { findOrganisation } from "../db/organisations.ts";
import type { AccountsSchema, ApiKeyRow, EnvironmentSchema } from "../db/schema.ts";
import type { Clock } from "./clock.ts";
import { type Config, type Environment, ENVIRONMENTS, publicUrlOf } from "./config.ts";
import { z } from "zod";
import { parseField } from "./accounts/organisations.ts";
import { ApiError, notFound } from "./errors.ts";
import { newId, randomToken } from "./ids.ts";
import type { Logger } from "./log.ts";
import { API_MINIMUM_PLAN, type Plan, planAtLeast } from "./plans.ts";
import { isStorageUnavailable } from "./storage.ts";

const SECRET_LENGTH = 32;
const KEY_PATTERN = /^sk_(sandbox|production)_[0-9A-Za-z]{32}$/;
/** How long a verified key is trusted before the database is asked again. */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
/** `last_used_at` is written at most this often per key, so using a key costs no write. */
const TOUCH_INTERVAL_MS = 60_000;

/** Who is calling: the key and the organisation it carries. */
export interface ApiPrincipal {
  apiKeyId: number;
  apiKeyPublicId: string;
  orgId: number;
  orgSlug: string;
  plan: Plan;
}

/** The hash stored for a key's secret. Keys are long random strings, so SHA-256 suffices. */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Returns a new secret such as `sk_sandbox_<32 random base62 characters>`. */
function generateApiKeySecret(environment: Environment): string {
  return `sk_${environment}_${randomToken(SECRET_LENGTH)}`;
}

/** A created key: its record, and its secret, which exists nowhere else. */
interface CreatedApiKey {
  record: ApiKeyRow;
  secret: string;
}

/** A key's name: what it is for, so the right one gets revoked. */
const ApiKeyName = z.string().trim().min(1, "must not be empty").max(
  100,
  "must be at most 100 characters",
);

function newKeyValues(orgId: number, name: string, environment: Environment, now: number) {
  const secret = generateApiKeySecret(environment);
  return {
    secret,
    values: {
      public_id: newId("apiKey"),
      org_id: orgId,
      name,
      secret_hash: hashApiKey(secret),
      last_four: secret.slice(-4),
      created_at: now,
      expires_at: null,
    },
  };
}

/** Creates an API key for an organisation in this environment's database. */
export async function createApiKey(
  store: Store<EnvironmentSchema>,
  input: { orgId: number; name: string; environment: Environment; now: number },
): Promise<CreatedApiKey> {
  const name = parseField(ApiKeyName, input.name, "name");
  const { secret, values } = newKeyValues(input.orgId, name, input.environment, input.now);
  const record = await store.write((trx) => insertApiKey(trx, values));
  return { record, secret };
}

/** Where a key stands at a moment. */
type ApiKeyStatus = "ACTIVE" | "EXPIRING" | "EXPIRED" | "REVOKED";

/** A key as the panel lists it: never its secret, which is not stored. */
export interface ApiKeySummary {
  id: string;
  name: string;
  /** What every secret of this environment starts with, such as `sk_sandbox_`. */
  prefix: string;
  lastFour: string;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
  status: ApiKeyStatus;
}

/** The status of a key at `now`; times of keys are system time, as the authenticator's. */
export function apiKeyStatus(row: ApiKeyRow, now: number): ApiKeyStatus {
  if (row.revoked_at !== null && row.revoked_at <= now) return "REVOKED";
  if (row.expires_at !== null) return row.expires_at <= now ? "EXPIRED" : "EXPIRING";
  return "ACTIVE";
}

/** Tells whether a key of this status still authenticates (an expiring one does until then). */
export function isUsableKeyStatus(status: ApiKeyStatus): boolean {
  return status === "ACTIVE" || status === "EXPIRING";
}

/** The panel's form of a key. */
export function toApiKeySummary(
  row: ApiKeyRow,
  environment: Environment,
  now: number,
): ApiKeySummary {
  return {
    id: row.public_id,
    name: row.name,
    prefix: `sk_${environment}_`,
    lastFour: row.last_four,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    status: apiKeyStatus(row, now),
  };
}

/** An organisation's keys in this environment, newest first. */
export async function listApiKeysOf(
  store: Store<EnvironmentSchema>,
  orgId: number,
): Promise<ApiKeyRow[]> {
  return await listApiKeys(store.db, orgId);
}

function assertUsable(row: ApiKeyRow, now: number, verb: string): void {
  const status = apiKeyStatus(row, now);
  if (status === "REVOKED" || status === "EXPIRED") {
    throw new ApiError(
      "state_conflict",
      `The key '${row.name}' is already ${status.toLowerCase()}; there is nothing to ${verb}.`,
    );
  }
}

/** Revokes a key at once: requests with it fail from now on (401 `api_key_revoked`). */
export async function revokeApiKey(
  store: Store<EnvironmentSchema>,
  input: { orgId: number; keyId: string; now: number },
): Promise<ApiKeyRow> {
  return await store.write(async (trx) => {
    const row = await findApiKey(trx, input.orgId, input.keyId);
    if (!row) throw notFound("API key", input.keyId, "id");
    assertUsable(row, input.now, "revoke");
    return (await updateApiKeyValidity(trx, row.id, { revoked_at: input.now }))!;
  });
}

/** The longest a rolled key may keep working: a week, as at Stripe. */
const MAX_ROLL_DELAY_MS = 7 * 86_400_000;

/**
 * Rolls a key: a new key with the same name, and the old one expiring after `expiresInMs` (0:
 * at once), both in one write, so there is never a moment with neither. An old key already
 * expiring sooner keeps its earlier end.
 */
export async function rollApiKey(
  store: Store<EnvironmentSchema>,
  input: {
    orgId: number;
    keyId: string;
    expiresInMs: number;
    environment: Environment;
    now: number;
  },
): Promise<CreatedApiKey & { previous: ApiKeyRow }> {
  if (
    !Number.isInteger(input.expiresInMs) || input.expiresInMs < 0 ||
    input.expiresInMs > MAX_ROLL_DELAY_MS
  ) {
    throw new ApiError(
      "parameter_invalid",
      "The old key may keep working for at most 7 days after a roll.",
      { param: "expiresIn" },
    );
  }
  return await store.write(async (trx) => {
    const row = await findApiKey(trx, input.orgId, input.keyId);
    if (!row) throw notFound("API key", input.keyId, "id");
    assertUsable(row, input.now, "roll");
    const { secret, values } = newKeyValues(input.orgId, row.name, input.environment, input.now);
    const record = await insertApiKey(trx, values);
    const end = input.now + input.expiresInMs;
    const previous = (await updateApiKeyValidity(trx, row.id, {
      expires_at: row.expires_at === null ? end : Math.min(row.expires_at, end),
    }))!;
    return { record, secret, previous };
  });
}

function masked(secret: string): string {
  return secret.length > 12
    ? `${secret.slice(0, secret.lastIndexOf("_") + 1)}...${secret.slice(-4)}`
    : "";
}

interface CachedKey {
  row: ApiKeyRow;
  principal: ApiPrincipal;
}

/** Turns an `Authorization` header into the calling organisation, or a 401/403 `ApiError`. */
export class ApiKeyAuthenticator {
  readonly #config: Config;
  readonly #store: Store<EnvironmentSchema>;
  readonly #accounts: Store<AccountsSchema>;
  readonly #clock: Clock;
  readonly #log: Logger;
  /** Keys read or being read, by secret, with when the read began. */
  readonly #cache = new Map<string, { key: Promise<CachedKey | undefined>; cachedAt: number }>();
  /** Headers already parsed, and the key each carries (see #secretOf). */
  readonly #secrets = new Map<string, string>();

  constructor(deps: {
    config: Config;
    store: Store<EnvironmentSchema>;
    accounts: Store<AccountsSchema>;
    clock: Clock;
    log: Logger;
  }) {
    this.#config = deps.config;
    this.#store = deps.store;
    this.#accounts = deps.accounts;
    this.#clock = deps.clock;
    this.#log = deps.log;
  }

  /** Authenticates a request's `Authorization` header value. */
  async authenticate(header: string | undefined): Promise<ApiPrincipal> {
    const secret = this.#secrets.get(header ?? "") ?? this.#secretOf(header);
    const now = this.#clock.now();
    const entry = await this.#lookup(secret, now);
    if (!entry) {
      throw new ApiError("api_key_invalid", `Invalid API key provided: ${masked(secret)}.`);
    }
    const { row, principal } = entry;
    if (row.revoked_at !== null && row.revoked_at <= now) {
      throw new ApiError("api_key_revoked", `The API key ${masked(secret)} has been revoked.`);
    }
    if (row.expires_at !== null && row.expires_at <= now) {
      throw new ApiError("api_key_expired", `The API key ${masked(secret)} has expired.`);
    }
    if (!planAtLeast(principal.plan, API_MINIMUM_PLAN)) {
      throw new ApiError(
        "plan_required",
        `API access needs plan ${API_MINIMUM_PLAN} or higher; the organisation '${principal.orgSlug}' is on ${principal.plan}.`,
      );
    }
    this.#touch(row, now);
    return principal;
  }

  /**
   * The key a header carries, or a 401 for a header that is missing, malformed or for the other
   * environment. Remembered per header: every request of a client sends the same one.
   */
  #secretOf(header: string | undefined): string {
    const environment = this.#config.environment;
    if (!header) {
      throw new ApiError(
        "api_key_missing",
        `No API key provided. Send it as 'Authorization: Bearer sk_${environment}_...'.`,
      );
    }
    const match = /^Bearer +(\S+)$/i.exec(header.trim());
    if (!match) {
      throw new ApiError(
        "api_key_invalid",
        "The Authorization header must be 'Bearer <API key>'.",
      );
    }
    const secret = match[1];
    const keyEnvironment = ENVIRONMENTS.find((env) => secret.startsWith(`sk_${env}_`));
    if (keyEnvironment && keyEnvironment !== environment) {
      throw new ApiError(
        "api_key_wrong_environment",
        `This key belongs to the ${keyEnvironment} environment; call the ${keyEnvironment} API host (${
          publicUrlOf(this.#config, keyEnvironment)
        }).`,
      );
    }
    if (!KEY_PATTERN.test(secret)) {
      throw new ApiError(
        "api_key_invalid",
        `The API key is malformed; ${environment} keys look like sk_${environment}_ followed by 32 letters and digits.`,
      );
    }
    if (this.#secrets.size >= CACHE_MAX_ENTRIES) this.#secrets.clear();
    this.#secrets.set(header, secret);
    return secret;
  }

  /** Forgets cached keys, so a revocation or plan change made here applies at once. */
  invalidate(): void {
    this.#cache.clear();
  }

  /**
   * The cache is keyed by the secret itself, so a cached key costs no hash; the process sees
   * every secret in its requests anyway. Only a key read from the database is compared.
   */
  #lookup(secret: string, now: number): Promise<CachedKey | undefined> {
    const cached = this.#cache.get(secret);
    if (cached && now - cached.cachedAt < CACHE_TTL_MS) return cached.key;
    // NOTE: the read is remembered while it runs, so the requests arriving meanwhile wait for it
    // instead of each reading: at an expiry a busy process had every request in flight read.
    const read = { key: this.#read(secret), cachedAt: now };
    if (this.#cache.size >= CACHE_MAX_ENTRIES) this.#cache.clear();
    this.#cache.set(secret, read);
    // Only a key found is kept: one created meanwhile (by another process) works at once.
    const forget = () => {
      if (this.#cache.get(secret) === read) this.#cache.delete(secret);
    };
    read.key.then((found) => {
      if (!found) forget();
    }, forget);
    return read.key;
  }

  /** Reads the key with `secret` and its organisation; undefined if there is no such key. */
  async #read(secret: string): Promise<CachedKey | undefined> {
    const hash = hashApiKey(secret);
    const row = await findApiKeyByHash(this.#store.db, hash);
    if (!row || !timingSafeEqual(Buffer.from(row.secret_hash), Buffer.from(hash))) return undefined;
    const org = await findOrganisation(this.#accounts.db, row.org_id);
    if (!org) return undefined;
    return {
      row,
      principal: {
        apiKeyId: row.id,
        apiKeyPublicId: row.public_id,
        orgId: org.id,
        orgSlug: org.slug,
        plan: org.plan as Plan,
      },
    };
  }

  #touch(row: ApiKeyRow, now: number): void {
    if (row.last_used_at !== null && now - row.last_used_at < TOUCH_INTERVAL_MS) return;
    row.last_used_at = now;
    this.#store.write((trx) => touchApiKey(trx, row.id, now)).catch((error) => {
      if (isStorageUnavailable(error)) return;
      this.#log.warn("could not record API key use", {
        apiKey: row.public_id,
        error: String(error),
      });
    });
  }
}
