import { IDEMPOTENCY_CLEANUP_JOB } from "./jobs.ts";
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { Store } from "../db/client.ts";
import {
  completeIdempotencyKey,
  deleteIdempotencyKey,
  deleteIdempotencyKeyRow,
  deleteIdempotencyKeysCreatedBy,
  findIdempotencyKey,
  insertNewIdempotencyKey,
} from "../db/idempotency_keys.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import type { Clock } from "./clock.ts";
import type { RequestWrite } from "./context.ts";
import { ApiError } from "./errors.ts";
import type { ScheduledJob } from "./scheduler.ts";

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How long a request holds its key; past it, a crashed request's key can be taken over. */
const LEASE_MS = 60_000;
/** How long the request's write may wait for its response to be rendered. */
const HOLD_TIMEOUT_MS = 10_000;

/** A response as stored for replay. */
export interface StoredResponse {
  status: number;
  contentType: string;
  body: string;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value).sort().map((key) =>
      `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`
    );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Identifies a request by method, path and body (key order does not matter). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256").update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest("hex");
}

/** When a key claimed at `now` (system time) may be taken over; a completed key keeps it. */
export function leaseEnd(now: number): number {
  return now + LEASE_MS;
}

/** Whether `key` is a well-formed Idempotency-Key: 1 to 255 printable ASCII characters. */
export function isWellFormedKey(key: string): boolean {
  return key.length >= 1 && key.length <= 255 && /^[\x21-\x7e]+$/.test(key);
}

/** An Idempotency-Key as a request presents it. */
export interface RequestKey {
  orgId: number;
  key: string;
  /** What was asked: method, path and body (see requestFingerprint). */
  fingerprint: string;
  /** When, on the system clock: keys live on it, not on an organisation's sandbox clock. */
  at: number;
}

/**
 * Thrown by a request's write that found its key already there: nothing of the write stayed.
 * `settleTakenKey` then says what the request answers.
 */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super("The Idempotency-Key was there before this request's write.");
    this.name = "IdempotencyKeyTaken";
  }
}

/** A request's hold on its key while it runs, until its write commits with its answer. */
export interface KeyClaim {
  id: number;
  lockedUntil: number;
}

/**
 * Claims a new key for a request that holds it while it runs (its work may be slow, and a second
 * request with the key must see it in use). One statement: one native call on a file, one round
 * trip that holds no lock on a libSQL server. Throws IdempotencyKeyTaken if the key is there.
 */
export async function claimKey(
  store: Store<EnvironmentSchema>,
  key: RequestKey,
): Promise<KeyClaim> {
  const lockedUntil = leaseEnd(key.at);
  // A claim need not be on disk before the request runs: its write commits after it, and no
  // acknowledged write outlives a lost claim.
  const id = await store.writeStatement((db) =>
    insertNewIdempotencyKey(db, {
      org_id: key.orgId,
      key: key.key,
      fingerprint: key.fingerprint,
      locked_until: lockedUntil,
      created_at: key.at,
    })
  );
  if (id === undefined) throw new IdempotencyKeyTaken();
  return { id, lockedUntil };
}

/** What a request whose key was taken answers: the first answer again, or it runs after all. */
export type TakenKey = { kind: "replay"; response: StoredResponse } | { kind: "free" };

/**
 * Decides about a key found taken, in one write transaction, so of concurrent identical requests
 * (in this process or another over the same database) exactly one runs; the rest see it. A
 * different request with the key, or one while the first still runs, is a 409. A key past its
 * 24 hours, or abandoned by a request that committed nothing, is removed: the request runs.
 */
export async function settleTakenKey(
  store: Store<EnvironmentSchema>,
  key: RequestKey,
): Promise<TakenKey> {
  const settled = await store.writeVisible(async (trx): Promise<TakenKey> => {
    const row = await findIdempotencyKey(trx, key.orgId, key.key);
    if (!row) return { kind: "free" };
    if (row.created_at <= key.at - IDEMPOTENCY_TTL_MS) {
      await deleteIdempotencyKeyRow(trx, row.id);
      return { kind: "free" };
    }
    if (row.fingerprint !== key.fingerprint) {
      throw new ApiError(
        "idempotency_key_reused",
        "This Idempotency-Key was used with a different request; use a new key for a new request.",
      );
    }
    if (row.status === "COMPLETED") {
      return {
        kind: "replay",
        response: {
          status: row.response_status!,
          contentType: row.response_content_type!,
          body: row.response_body!,
        },
      };
    }
    if (row.locked_until > key.at && !wasAbandoned(store, row.id, row.locked_until)) {
      throw new ApiError(
        "idempotency_key_in_use",
        "A request with this Idempotency-Key is still running; retry after it finishes.",
      );
    }
    // The request that held the key died, or failed on storage, before committing anything.
    await deleteIdempotencyKeyRow(trx, row.id);
    abandonedClaims.get(store)?.delete(row.id);
    return { kind: "free" };
  });
  // NOTE: a replayed answer is a 2xx: the write it stands for must be on disk first. A write
  // that commits after this one is acknowledged only once all before it is durable.
  if (settled.kind === "replay") await store.write(() => Promise.resolve());
  return settled;
}

/**
 * Claims this process gave up without being able to release them (the storage failed), per
 * store: their id and lease. A retry may take such a key over at once instead of waiting for
 * the lease to end, as nothing of the request was committed.
 */
const abandonedClaims = new WeakMap<Store<EnvironmentSchema>, Map<number, number>>();

function wasAbandoned(store: Store<EnvironmentSchema>, id: number, lockedUntil: number): boolean {
  return abandonedClaims.get(store)?.get(id) === lockedUntil;
}

function abandonClaim(
  store: Store<EnvironmentSchema>,
  claim: KeyClaim,
  now: number,
): void {
  let claims = abandonedClaims.get(store);
  if (!claims) abandonedClaims.set(store, claims = new Map());
  // Past its lease a claim can be taken over anyway; forget those.
  for (const [id, lockedUntil] of claims) if (lockedUntil <= now) claims.delete(id);
  claims.set(claim.id, claim.lockedUntil);
}

interface HeldWrite {
  respond(response: StoredResponse | null): void;
  committed: Promise<unknown>;
}

/**
 * One request running under a claimed key. Its single write transaction stays open until the
 * response is known, and the response is stored in that same transaction: the change and its
 * replayable answer commit together or not at all. A crash before that commit leaves the key
 * in flight with nothing changed, so once the lease ends a retry safely runs again.
 */
export class IdempotentRequest {
  readonly #store: Store<EnvironmentSchema>;
  readonly #claim: KeyClaim;
  #held: HeldWrite | null = null;

  constructor(store: Store<EnvironmentSchema>, claim: KeyClaim) {
    this.#store = store;
    this.#claim = claim;
  }

  /** The write function the request's services use instead of the store's. */
  readonly write: RequestWrite = <T>(
    work: (trx: Kysely<EnvironmentSchema>) => Promise<T>,
  ): Promise<T> => {
    if (this.#held) {
      // A second write would wait for the first, which waits for the response: a deadlock.
      return Promise.reject(new Error("A request under an Idempotency-Key may write only once."));
    }
    let resolveResult!: (value: T) => void;
    let rejectResult!: (reason: unknown) => void;
    const result = new Promise<T>((resolve, reject) => {
      resolveResult = resolve;
      rejectResult = reject;
    });
    let respond!: (response: StoredResponse | null) => void;
    const response = new Promise<StoredResponse | null>((resolve) => (respond = resolve));
    const committed = this.#store.write(async (trx) => {
      let value: T;
      try {
        value = await work(trx);
      } catch (error) {
        rejectResult(error);
        throw error;
      }
      resolveResult(value);
      const stored = await withTimeout(response, HOLD_TIMEOUT_MS);
      if (stored === null) throw new RequestFailedAfterWrite();
      const holding = await completeIdempotencyKey(
        trx,
        this.#claim.id,
        this.#claim.lockedUntil,
        stored,
      );
      if (!holding) {
        throw new ApiError(
          "idempotency_key_in_use",
          "This request took longer than its Idempotency-Key lease and was superseded.",
        );
      }
      return value;
    });
    committed.catch(rejectResult);
    this.#held = { respond, committed };
    return result;
  };

  /**
   * Ends the request with its answer: a successful one commits with the write; a refusal (4xx
   * or 5xx) undoes it. A request that changed nothing releases its key.
   */
  async finish(response: StoredResponse): Promise<void> {
    const held = this.#held;
    if (!held || response.status >= 400) return await this.fail();
    held.respond(response);
    try {
      await held.committed;
    } catch (error) {
      // NOTE: the write and its stored response committed together or not at all; it failed,
      // so the key is released and a retry runs the request again.
      await this.#release().catch(() => {});
      throw error;
    }
  }

  /** Ends a request that failed: its write is undone and its key released. */
  async fail(): Promise<void> {
    if (this.#held) {
      this.#held.respond(null);
      await this.#held.committed.catch(() => {});
    }
    await this.#release();
  }

  /** Gives the key back; if the storage cannot take that, lets this process's next claim take it. */
  async #release(): Promise<void> {
    try {
      await this.#store.write((trx) =>
        deleteIdempotencyKey(trx, this.#claim.id, this.#claim.lockedUntil)
      );
    } catch (error) {
      abandonClaim(this.#store, this.#claim, this.#claim.lockedUntil - LEASE_MS);
      throw error;
    }
  }
}

class RequestFailedAfterWrite extends Error {
  constructor() {
    super("The request failed after writing; its write is undone.");
    this.name = "RequestFailedAfterWrite";
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No response within ${ms} ms of the write.`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Forgets keys older than the 24 hours they are kept. */
export function idempotencyCleanupJob(store: Store<EnvironmentSchema>, clock: Clock): ScheduledJob {
  return {
    name: IDEMPOTENCY_CLEANUP_JOB,
    async run(now) {
      while (
        await store.write((trx) =>
          deleteIdempotencyKeysCreatedBy(trx, now - IDEMPOTENCY_TTL_MS, 500)
        ) === 500
      ) {
        // keep deleting in small transactions so API writes interleave
      }
      return clock.now() + 3_600_000;
    },
  };
}
