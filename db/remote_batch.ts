import { BatchCond, type RowsResult } from "@libsql/hrana-client";
import { type CommitProbe, nextTurn } from "./group_commit.ts";
import type { ExecuteResult, SqlStatement } from "./libsql_dialect.ts";
import {
  type MergeableItem,
  type MergeableWrite,
  type MergedGroup,
  mergeItems,
  STATEMENTS,
} from "./mergeable_write.ts";
import { type KeptStream, toExecuteResult, toHrana } from "./remote_connection.ts";
import type { StorageHealth } from "./storage_health.ts";

interface PendingWrite extends MergeableItem<unknown, unknown> {
  resolve: (result: unknown) => void;
  reject: (reason: unknown) => void;
}

/** How long a batch keeps retrying while another connection holds the server's write lock. */
const BUSY_DEADLINE_MS = 5_000;
/** Items per request: a request stays well under the server's size limits. */
const MAX_ITEMS = 64;
/**
 * While writes come in together, a request waits up to GATHER_MS for GATHER_ITEMS of them: the
 * server's CPU is mostly per commit (about 1.6 ms of sqld's for a commit of creates, 0.3 ms a
 * create; `docs/performance.md`, issue 34's soak), so larger commits leave it more for creates.
 */
const GATHER_ITEMS = 16;
const GATHER_MS = 3;

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
 * write waiting when a request leaves is sent in that one request, as one transaction, so
 * concurrent writes share one round trip and one commit instead of a round trip per statement
 * under the server's write lock. Writes of a mergeable kind (see MergeableWrite) also share
 * their statements. One request is in flight at a time, on a stream kept open:
 * measured against two or four, it let more writes share each commit. The commit probes ride at
 * the end of the same request, so a listener needs no read of its own after the commit.
 */
export class RemoteBatchWriter {
  readonly #stream: KeptStream;
  readonly #health: StorageHealth;
  readonly #listeners: RemoteCommitListeners;
  #pending: PendingWrite[] = [];
  #sending: Promise<void> | null = null;
  /** How many writes the last request carried: more than one says writes come in together. */
  #lastCarried = 0;

  constructor(stream: KeptStream, health: StorageHealth, listeners: RemoteCommitListeners) {
    this.#stream = stream;
    this.#health = health;
    this.#listeners = listeners;
  }

  /** Runs `statements` atomically; resolves with their results once committed on the server. */
  write(statements: readonly SqlStatement[]): Promise<ExecuteResult[]> {
    return this.writeMergeable(STATEMENTS, statements);
  }

  /** Writes `input` atomically; resolves with its result once committed on the server. */
  writeMergeable<I, T>(kind: MergeableWrite<I, T>, input: I): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#pending.push({
        kind: kind as MergeableWrite<unknown, unknown>,
        input,
        resolve: resolve as (result: unknown) => void,
        reject,
      });
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
        // NOTE: one turn of the event loop first lets requests that have arrived reach their
        // writes and share this request: the server's cost is mostly per commit.
        await nextTurn();
        // A lone writer is never held back: only a request that shared its commit waits.
        if (this.#lastCarried > 1 && this.#pending.length < GATHER_ITEMS) await pause(GATHER_MS);
        const items = this.#pending.splice(0, MAX_ITEMS);
        this.#lastCarried = items.length;
        const probes = this.#listeners.probes();
        let sent;
        try {
          // A kind's statements() may refuse its input: then each write is sent alone.
          const groups = mergeItems(items);
          sent = { groups, results: await this.#commit(groups, probes) };
        } catch (error) {
          // One write's failure must not fail the others it shared the request with.
          if (items.length === 1 && probes.length === 0) {
            items[0].reject(this.#health.classify(error));
          } else {
            for (const item of items) await this.#sendAlone(item);
          }
          continue;
        }
        // Outside the try: what committed is never sent again.
        this.#settle(items, sent.groups, sent.results, probes);
      }
    } finally {
      this.#sending = null;
    }
  }

  /** Sends one write without the probes: its listeners then read for themselves. */
  async #sendAlone(item: PendingWrite): Promise<void> {
    let sent;
    try {
      const groups = mergeItems([item]);
      sent = { groups, results: await this.#commit(groups, []) };
    } catch (error) {
      item.reject(this.#health.classify(error));
      return;
    }
    this.#settle([item], sent.groups, sent.results, []);
  }

  /**
   * Sends the groups' statements, then the probes', as one transaction, retrying while the lock
   * is busy.
   */
  async #commit(
    groups: readonly MergedGroup<unknown, unknown>[],
    probes: readonly CommitProbe[],
  ): Promise<RowsResult[]> {
    const statements = [
      ...groups.flatMap((group) => group.statements),
      ...probes.map((probe) => probe.statement()),
    ];
    const deadline = Date.now() + BUSY_DEADLINE_MS;
    for (let attempt = 0;; attempt++) {
      try {
        return await this.#transaction(statements);
      } catch (error) {
        // NOTE: a busy batch was rolled back whole on the server, so sending it again is safe.
        if (!isBusy(error) || Date.now() >= deadline) throw error;
        await pause(Math.min(1 + attempt, 10) * Math.random());
      }
    }
  }

  /**
   * Runs `statements` in one transaction, in one request: each step runs only if the one before
   * it succeeded, and a transaction that did not commit is rolled back in the same request.
   */
  async #transaction(statements: readonly SqlStatement[]): Promise<RowsResult[]> {
    const batch = this.#stream.get().batch(false);
    const begin = batch.step();
    const began = begin.run("BEGIN IMMEDIATE");
    let last = begin;
    const queries = statements.map((statement) => {
      const step = batch.step().condition(BatchCond.ok(last));
      last = step;
      return step.query(toHrana(statement));
    });
    const commit = batch.step().condition(BatchCond.ok(last));
    const committed = commit.run("COMMIT");
    const rolledBack = batch.step().condition(BatchCond.not(BatchCond.ok(commit))).run("ROLLBACK");
    // A step's promise settles only if the request got an answer, and may reject unheard.
    for (const step of [began, committed, rolledBack, ...queries]) step.catch(() => undefined);
    try {
      await batch.execute();
    } catch (error) {
      // Unanswered: what the server did is unknown, so nothing of it may carry on.
      this.#stream.discard();
      throw error;
    }
    // A failed BEGIN (the lock is busy) opened nothing: the stream is as it was.
    await began;
    try {
      const results = await Promise.all(queries);
      if (await committed === undefined) throw new Error("The transaction was not committed.");
      return results as RowsResult[];
    } catch (error) {
      // NOTE: the ROLLBACK step should have ended the transaction; a new stream makes sure none
      // stays open on the stream the next batch uses.
      this.#stream.discard();
      throw error;
    }
  }

  #settle(
    items: PendingWrite[],
    groups: readonly MergedGroup<unknown, unknown>[],
    results: RowsResult[],
    probes: readonly CommitProbe[],
  ): void {
    this.#health.succeeded();
    let offset = 0;
    for (const { kind, members, statements } of groups) {
      const own = results.slice(offset, offset + statements.length).map(toExecuteResult);
      offset += statements.length;
      try {
        const values = kind.results(members.map((index) => items[index].input), own);
        members.forEach((index, at) => items[index].resolve(values[at]));
      } catch (error) {
        // Committed, but its results cannot be read: the writers hear of it, not the others.
        for (const index of members) items[index].reject(error);
      }
    }
    const probed = new Map<CommitProbe, ExecuteResult>();
    probes.forEach((probe, index) => probed.set(probe, toExecuteResult(results[offset + index])));
    this.#listeners.committed(probed);
  }
}
