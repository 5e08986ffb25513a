import { ClosedError, type RowsResult } from "@libsql/hrana-client";
import type { ExecuteResult, SqlStatement, StatementExecutor } from "./libsql_dialect.ts";
import {
  type KeptStream,
  type RemoteConnection,
  toExecuteResult,
  toHrana,
} from "./remote_connection.ts";

/** Streams kept open for reads: reads of concurrent requests run side by side on the server. */
const READ_STREAMS = 4;

interface WaitingRead {
  statement: SqlStatement;
  resolve: (result: ExecuteResult) => void;
  reject: (reason: unknown) => void;
}

/**
 * Reads from a libSQL server, taking turns on streams kept open (0.2 ms of the server's CPU per
 * read, against 1.5 ms on a stream of its own: `bench/sqld_streams.ts`). Reads asked for
 * together (before a microtask runs, as `Promise.all` of reads asks) go in one request, each
 * statement on its own: most of what a read costs the server and this process is its request.
 */
export class RemoteReader implements StatementExecutor {
  readonly #streams: KeptStream[];
  #turn = 0;
  #waiting: WaitingRead[] = [];

  constructor(connection: RemoteConnection) {
    this.#streams = Array.from({ length: READ_STREAMS }, () => connection.keptStream());
  }

  execute(statement: SqlStatement): Promise<ExecuteResult> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ statement, resolve, reject });
      if (this.#waiting.length === 1) queueMicrotask(() => this.#send(this.#waiting.splice(0)));
    });
  }

  async #send(reads: WaitingRead[]): Promise<void> {
    const slot = this.#streams[this.#turn++ % READ_STREAMS];
    let results: Promise<RowsResult>[];
    try {
      results = await this.#request(slot, reads);
    } catch (error) {
      // A read changes nothing, so one that met a closed connection (the server restarted, or
      // dropped it while idle) is sent once more on a new one instead of failing a request.
      if (!(error instanceof ClosedError)) {
        for (const read of reads) read.reject(error);
        return;
      }
      slot.discard();
      try {
        results = await this.#request(slot, reads);
      } catch (again) {
        for (const read of reads) read.reject(again);
        return;
      }
    }
    reads.forEach((read, index) =>
      results[index].then((result) => read.resolve(toExecuteResult(result)), read.reject)
    );
  }

  /**
   * Sends `reads` in one request: a lone read as a query, several as a batch whose steps run
   * each on its own (a statement's failure is its step's). Rejects if the request got no answer
   * or its lone read failed.
   */
  async #request(slot: KeptStream, reads: WaitingRead[]): Promise<Promise<RowsResult>[]> {
    const stream = slot.get();
    if (reads.length === 1) {
      const result = await stream.query(toHrana(reads[0].statement));
      return [Promise.resolve(result)];
    }
    const batch = stream.batch(false);
    const steps = reads.map((read) =>
      batch.step().query(toHrana(read.statement)) as Promise<RowsResult>
    );
    // A step's promise may reject unheard when the request got no answer.
    for (const step of steps) step.catch(() => undefined);
    await batch.execute();
    return steps;
  }
}
