import type { Client, InArgs, ResultSet } from "@libsql/client/web";
import type { CommitProbe } from "./group_commit.ts";
import type { ExecuteResult, SqlStatement } from "./libsql_dialect.ts";
import type { StorageHealth } from "./storage_health.ts";

interface PendingStatements {
  statements: readonly SqlStatement[];
  resolve: (results: ExecuteResult[]) => void;
  reject: (reason: unknown) => void;
}

/** How long a batch keeps retrying while another connection holds the server's write lock. */
const BUSY_DEADLINE_MS = 5_000;
/** Items per request: a request stays well under the server's size limits. */
const MAX_ITEMS = 64;

function toExecuteResult(result: ResultSet): ExecuteResult {
  return {
    rows: result.rows as unknown as Record<string, unknown>[],
    rowsAffected: result.rowsAffected,
    lastInsertRowid: result.lastInsertRowid,
  };
}

function isBusy(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "SQLITE_BUSY" ||
    /database is locked/.test(String(error));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Who hears of this writer's commits: the store's commit listeners and probes. */
export interface RemoteCommitListeners {
  /** The reads to run at the end of every shared batch, in its transaction. */
  probes(): readonly CommitProbe[];
  /** Runs after every batch that committed, with the probes' results if it ran them. */
  committed(probed: ReadonlyMap<CommitProbe, ExecuteResult>): void;
}

/**
 * Writes declared up front (see GroupCommitWriter.writeStatements) to a libSQL server: every
 * write waiting when a request leaves is sent in that one request, as one transaction
 * (`batch(..., "write")`), so concurrent writes share one round trip and one commit instead of a
 * round trip per statement under the server's write lock. One request is in flight at a time:
 * measured against two or four, it let more writes share each commit. The commit probes ride at
 * the end of the same request, so a listener needs no read of its own after the commit.
 */
export class RemoteBatchWriter {
  readonly #client: Client;
  readonly #health: StorageHealth;
  readonly #listeners: RemoteCommitListeners;
  #pending: PendingStatements[] = [];
  #sending: Promise<void> | null = null;

  constructor(client: Client, health: StorageHealth, listeners: RemoteCommitListeners) {
    this.#client = client;
    this.#health = health;
    this.#listeners = listeners;
  }

  /** Runs `statements` atomically; resolves with their results once committed on the server. */
  write(statements: readonly SqlStatement[]): Promise<ExecuteResult[]> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ statements, resolve, reject });
      this.#sending ??= this.#send();
    });
  }

  /** Resolves when nothing is waiting or in flight. */
  async idle(): Promise<void> {
    while (this.#sending) await this.#sending;
  }

  async #send(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const items = this.#pending.splice(0, MAX_ITEMS);
        const probes = this.#listeners.probes();
        try {
          this.#settle(items, await this.#commit(items, probes), probes);
        } catch (error) {
          // One write's failure must not fail the others it shared the request with.
          if (items.length === 1 && probes.length === 0) {
            items[0].reject(this.#health.classify(error));
          } else {
            for (const item of items) await this.#sendAlone(item);
          }
        }
      }
    } finally {
      this.#sending = null;
    }
  }

  /** Sends one write without the probes: its listeners then read for themselves. */
  async #sendAlone(item: PendingStatements): Promise<void> {
    try {
      this.#settle([item], await this.#commit([item], []), []);
    } catch (error) {
      item.reject(this.#health.classify(error));
    }
  }

  /**
   * Sends the items' statements, then the probes', as one transaction, retrying while the lock
   * is busy.
   */
  async #commit(
    items: PendingStatements[],
    probes: readonly CommitProbe[],
  ): Promise<ResultSet[]> {
    const statements = [
      ...items.flatMap((item) => item.statements),
      ...probes.map((probe) => probe.statement()),
    ].map(({ sql, args }) => ({ sql, args: args as InArgs }));
    const deadline = Date.now() + BUSY_DEADLINE_MS;
    for (let attempt = 0;; attempt++) {
      try {
        return await this.#client.batch(statements, "write");
      } catch (error) {
        // NOTE: a busy batch was rolled back whole on the server, so sending it again is safe.
        if (!isBusy(error) || Date.now() >= deadline) throw error;
        await pause(Math.min(1 + attempt, 10) * Math.random());
      }
    }
  }

  #settle(
    items: PendingStatements[],
    results: ResultSet[],
    probes: readonly CommitProbe[],
  ): void {
    this.#health.succeeded();
    let offset = 0;
    for (const item of items) {
      const count = item.statements.length;
      item.resolve(results.slice(offset, offset + count).map(toExecuteResult));
      offset += count;
    }
    const probed = new Map<CommitProbe, ExecuteResult>();
    probes.forEach((probe, index) => probed.set(probe, toExecuteResult(results[offset + index])));
    this.#listeners.committed(probed);
  }
}
