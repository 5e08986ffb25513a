import { setImmediate } from "node:timers";
import type { Kysely } from "kysely";
import {
  type ExecuteResult,
  libsqlKysely,
  type SqlStatement,
  type StatementExecutor,
} from "./libsql_dialect.ts";
import type { StorageHealth } from "./storage_health.ts";

/** An open write transaction handed out by the database connection. */
export interface WriteBatch {
  executor: StatementExecutor;
  /** Commits: the changes become visible to readers. */
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Resolves once the committed changes are on disk; absent when commit() already ensures it. */
  durable?(): Promise<void>;
  /**
   * Whether the transaction is still open after a statement failed: SQLite ends it by itself on
   * a full disk or an I/O error. Absent: a failed statement fails the batch.
   */
  active?(): boolean;
}

interface PendingWrite<S> {
  work: (trx: Kysely<S>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** Run once this write is committed and durable; dropped if it rolls back. */
  afterCommit: (() => void)[];
  /** Settles at the commit instead of once the commit is on disk (see writeVisible). */
  visible: boolean;
  /** Makes one statement, so needs no savepoint (see writeStatement). */
  single: boolean;
  /** Statements declared up front (see writeStatements): running it again repeats nothing else. */
  declared: boolean;
}

/**
 * A read made at the end of every batch, inside its transaction, for a commit listener: the
 * listener learns what the commit left without a read of its own on a cold connection.
 */
export interface CommitProbe {
  statement(): SqlStatement;
  /** Called after every commit with the probe's result, or null where none was read. */
  listener(result: ExecuteResult | null): void;
}

/** Batches whose fsync may run while the next batch executes: one running, one committing. */
const MAX_FLUSHES = 2;

/** Resolves after the event loop's next poll for I/O. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The writer behind each transaction handle handed to write callbacks. */
const writers = new WeakMap<object, GroupCommitWriter<unknown>>();

/**
 * Runs `action` once the write whose callback received `trx` is committed and durable; never if
 * it rolls back. Throws outside a write callback.
 */
export function afterCommitOf<S>(trx: Kysely<S>, action: () => void): void {
  const writer = writers.get(trx);
  if (!writer) throw new Error("afterCommit() takes the transaction of a write() callback.");
  writer.attach(action);
}

/**
 * Runs write transactions one batch at a time (group commit): every write waiting when a batch
 * starts shares its transaction, each inside its own savepoint (but for one-statement writes and
 * batches of declared writes), and its commit. A write's promise settles only after its batch is
 * committed and durable, so an acknowledged write survives a crash. While a batch's fsync runs
 * the event loop keeps serving requests, and the writes they make wait to share the next commit.
 */
export class GroupCommitWriter<S> {
  readonly #openBatch: (oneStatement: boolean) => Promise<WriteBatch>;
  readonly #health: StorageHealth;
  readonly #maxBatchSize: number;
  readonly #beforeBatch: () => Promise<void> | undefined;
  readonly #trx: Kysely<S>;
  readonly #listeners = new Set<() => void>();
  readonly #probes = new Set<CommitProbe>();
  readonly #probeInBatch: boolean;
  #current: StatementExecutor | null = null;
  #currentItem: PendingWrite<S> | null = null;
  /** Statements the running write has made. */
  #statements = 0;
  /** Whether the running writeStatement() callback's statement failed (and so undid itself). */
  #statementFailed = false;
  #pending: PendingWrite<S>[] = [];
  #draining: Promise<void> | null = null;
  readonly #flushing = new Set<Promise<void>>();

  /**
   * Storage failures are reported to `health` and reach writers as `StorageUnavailableError`.
   * `openBatch(true)` opens a batch for one writeStatement() alone, which needs no transaction
   * of its own: a connection may run it as it comes (autocommit), saving BEGIN and COMMIT.
   * `probeInBatch` runs commit probes inside each batch; off (a libSQL server, where a read is a
   * round trip made while holding the write lock) their listeners hear null. `beforeBatch` may
   * hold the next batch back: it returns a promise (that never rejects) to wait for, or
   * undefined to go on at once.
   */
  constructor(
    openBatch: (oneStatement: boolean) => Promise<WriteBatch>,
    health: StorageHealth,
    options: {
      maxBatchSize?: number;
      probeInBatch?: boolean;
      beforeBatch?: () => Promise<void> | undefined;
    } = {},
  ) {
    this.#openBatch = openBatch;
    this.#health = health;
    this.#maxBatchSize = options.maxBatchSize ?? 256;
    this.#probeInBatch = options.probeInBatch ?? false;
    this.#beforeBatch = options.beforeBatch ?? (() => undefined);
    this.#trx = libsqlKysely<S>(() => {
      if (this.#current === null) {
        throw new Error("This transaction has ended; run queries inside the write() callback.");
      }
      this.#statements++;
      if (this.#currentItem?.single) return this.#singleStatement(this.#current);
      return this.#current;
    });
    writers.set(this.#trx, this as GroupCommitWriter<unknown>);
  }

  /** Runs `work` in a write transaction and resolves once that transaction is durable. */
  write<T>(work: (trx: Kysely<S>) => Promise<T>): Promise<T> {
    return this.#enqueue(work, {});
  }

  /**
   * Runs `work` in a write transaction and resolves once it is committed, visible to every
   * connection, maybe before it is on disk: for a claim that guards a later write, which a
   * crash may lose together with everything after it. Never acknowledge a client on it.
   */
  writeVisible<T>(work: (trx: Kysely<S>) => Promise<T>): Promise<T> {
    return this.#enqueue(work, { visible: true });
  }

  /**
   * As writeVisible, for `work` that makes exactly one statement: a statement is atomic, so in a
   * batch it runs without the two native calls of a savepoint. A second statement throws.
   */
  writeStatement<T>(work: (trx: Kysely<S>) => Promise<T>): Promise<T> {
    return this.#enqueue(work, { visible: true, single: true });
  }

  /**
   * Runs `statements` in order as one write, atomically, and resolves with their results once
   * durable: a write declared up front, with no round trip back to the caller between them.
   */
  writeStatements(statements: readonly SqlStatement[]): Promise<ExecuteResult[]> {
    return this.#enqueue(
      async () => {
        const results: ExecuteResult[] = [];
        for (const statement of statements) results.push(await this.#current!.execute(statement));
        return results;
      },
      { declared: true },
    );
  }

  /**
   * Tells the commit listeners of a write committed by another path to the same database, with
   * what that path read for `commitProbes()` in its transaction (a probe left out hears null).
   */
  announceCommit(probed: ReadonlyMap<CommitProbe, ExecuteResult> = new Map()): void {
    this.#notify([], probed);
  }

  /** The commit probes, for another path that commits to the same database (`announceCommit`). */
  commitProbes(): CommitProbe[] {
    return [...this.#probes];
  }

  #enqueue<T>(
    work: (trx: Kysely<S>) => Promise<T>,
    { visible = false, single = false, declared = false }: Partial<
      Pick<PendingWrite<S>, "visible" | "single" | "declared">
    >,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
        afterCommit: [],
        visible,
        single,
        declared,
      });
      this.#draining ??= this.#drain();
    });
  }

  /** Attaches `action` to the write whose callback is running (see afterCommitOf). */
  attach(action: () => void): void {
    if (this.#currentItem === null) {
      throw new Error("afterCommit() runs inside a write() callback, before it returns.");
    }
    this.#currentItem.afterCommit.push(action);
  }

  /** Calls `listener` after every commit. Returns a function that removes it. */
  onCommit(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Runs `probe` at the end of every batch and hands its result on after the commit. */
  onCommitProbe(probe: CommitProbe): () => void {
    this.#probes.add(probe);
    return () => this.#probes.delete(probe);
  }

  /** Resolves when no write is waiting, running or being flushed. */
  async idle(): Promise<void> {
    while (this.#draining || this.#flushing.size > 0) {
      await Promise.all([this.#draining, ...this.#flushing]);
    }
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        // NOTE: the next batch may commit while the last one's fsync runs: each batch is
        // acknowledged after an fsync that began after its own commit, which flushes every
        // earlier commit too. Two flushes at most, so a slow disk holds writes back.
        while (this.#flushing.size >= MAX_FLUSHES) await Promise.race(this.#flushing);
        const hold = this.#beforeBatch();
        if (hold) await hold;
        // NOTE: one turn of the event loop first lets requests that have arrived reach their
        // writes and share this commit: at 32 connections batches of 14 instead of 7, so each
        // commit's page writes are shared by twice as many.
        await nextTurn();
        await this.#runBatch(this.#pending.splice(0, this.#maxBatchSize));
      }
    } finally {
      this.#draining = null;
    }
  }

  async #runBatch(items: PendingWrite<S>[]): Promise<void> {
    // NOTE: a savepoint copies every page its write touches (to a temporary file, past 64 KiB),
    // a third of a create's SQLite time. Declared writes are data and can run again, so a batch
    // of them runs without savepoints first and, should one fail, again with them.
    const straight = items.length > 1 && items.every((item) => item.declared);
    if (!straight || await this.#runTransaction(items, true) === "again") {
      await this.#runTransaction(items, false);
    }
  }

  /**
   * Runs one batch's transaction through to its acknowledgement. `straight`: without savepoints,
   * answering "again" (rolled back, nothing settled) when a write failed in a transaction that
   * is still open.
   */
  async #runTransaction(items: PendingWrite<S>[], straight: boolean): Promise<"done" | "again"> {
    let batch: WriteBatch;
    try {
      batch = await this.#openBatch(items.length === 1 && items[0].single);
    } catch (error) {
      const reason = this.#health.classify(error);
      for (const item of items) item.reject(reason);
      return "done";
    }
    this.#current = batch.executor;
    const done: { item: PendingWrite<S>; value: unknown }[] = [];
    let probed = new Map<CommitProbe, ExecuteResult>();
    let writing = true;
    try {
      if (items.length === 1 || straight) {
        // No savepoints: a failure rolls back the whole transaction, which for a straight batch
        // then runs again with them.
        for (const item of items) {
          this.#start(item);
          done.push({ item, value: await item.work(this.#trx) });
        }
      } else {
        for (const item of items) {
          const result = item.single
            ? await this.#runStatement(batch, item)
            : await this.#runInSavepoint(batch, item);
          if (result.ok) done.push({ item, value: result.value });
        }
      }
      writing = false;
      this.#current = null;
      this.#currentItem = null;
      probed = await this.#runProbes(batch);
      await batch.commit();
    } catch (error) {
      this.#current = null;
      this.#currentItem = null;
      const again = straight && writing && batch.active?.() !== false;
      try {
        await batch.rollback();
      } catch {
        // SQLite may have rolled back already (a full disk does); the failure is reported below.
      }
      if (again) return "again";
      const reason = this.#health.classify(error);
      // Settling a promise twice is a no-op, so writes that already failed keep their own error.
      for (const item of items) item.reject(reason);
      return "done";
    }
    for (const { item, value } of done) if (item.visible) item.resolve(value);
    if (!batch.durable) {
      this.#acknowledge(done, probed);
      return "done";
    }
    const flush: Promise<void> = batch.durable().then(
      () => this.#acknowledge(done, probed),
      (error) => {
        // NOTE: committed but maybe not on disk: never acknowledge such a write.
        const reason = this.#health.fail(error);
        for (const { item } of done) item.reject(reason);
      },
    ).finally(() => this.#flushing.delete(flush));
    this.#flushing.add(flush);
    return "done";
  }

  /** Settles the writes of a batch that is on disk, then runs what waits for it. */
  #acknowledge(
    done: { item: PendingWrite<S>; value: unknown }[],
    probed: Map<CommitProbe, ExecuteResult>,
  ): void {
    this.#health.succeeded();
    for (const { item, value } of done) item.resolve(value);
    this.#notify(done.flatMap(({ item }) => item.afterCommit), probed);
  }

  #notify(actions: (() => void)[], probed: ReadonlyMap<CommitProbe, ExecuteResult>): void {
    const calls = [
      ...actions,
      ...this.#listeners,
      ...[...this.#probes].map((probe) => () => probe.listener(probed.get(probe) ?? null)),
    ];
    for (const call of calls) {
      try {
        call();
      } catch {
        // A listener's failure must not undo or delay acknowledged writes.
      }
    }
  }

  /** The probes' reads, in the batch's transaction; a probe that fails is left out. */
  async #runProbes(batch: WriteBatch): Promise<Map<CommitProbe, ExecuteResult>> {
    const results = new Map<CommitProbe, ExecuteResult>();
    if (!this.#probeInBatch) return results;
    for (const probe of this.#probes) {
      try {
        results.set(probe, await batch.executor.execute(probe.statement()));
      } catch {
        // Its listener reads for itself; a batch SQLite has ended fails at its commit.
      }
    }
    return results;
  }

  #start(item: PendingWrite<S>): void {
    this.#currentItem = item;
    this.#statements = 0;
    this.#statementFailed = false;
  }

  /** The executor for a writeStatement() callback: records whether its statement failed. */
  #singleStatement(executor: StatementExecutor): StatementExecutor {
    if (this.#statements > 1) {
      throw new Error("A writeStatement() callback makes one statement; use write().");
    }
    return {
      execute: (statement) =>
        executor.execute(statement).catch((error) => {
          this.#statementFailed = true;
          throw error;
        }),
    };
  }

  /** Runs a one-statement write in the batch: a failed statement undoes only itself. */
  async #runStatement(
    batch: WriteBatch,
    item: PendingWrite<S>,
  ): Promise<{ ok: true; value: unknown } | { ok: false }> {
    this.#start(item);
    try {
      return { ok: true, value: await item.work(this.#trx) };
    } catch (error) {
      // Only a failed statement undid itself, and only an open transaction lets the batch go on.
      const undone = this.#statements === 0 || this.#statementFailed;
      if (!undone || !batch.active?.()) throw error;
      item.afterCommit.length = 0;
      item.reject(this.#health.classify(error));
      return { ok: false };
    }
  }

  async #runInSavepoint(
    batch: WriteBatch,
    item: PendingWrite<S>,
  ): Promise<{ ok: true; value: unknown } | { ok: false }> {
    await batch.executor.execute({ sql: "SAVEPOINT write_item", args: [] });
    this.#start(item);
    try {
      const value = await item.work(this.#trx);
      await batch.executor.execute({ sql: "RELEASE write_item", args: [] });
      return { ok: true, value };
    } catch (error) {
      // A full disk or an I/O error ends the whole transaction: the batch fails with that error.
      if (batch.active?.() === false) throw error;
      // If the savepoint itself cannot be rolled back the batch is broken: let the batch fail.
      await batch.executor.execute({ sql: "ROLLBACK TO write_item", args: [] });
      await batch.executor.execute({ sql: "RELEASE write_item", args: [] });
      item.afterCommit.length = 0;
      item.reject(this.#health.classify(error));
      return { ok: false };
    }
  }
}
