import { ClosedError, openHttp, openWs, type RowsResult, type Stream } from "@libsql/hrana-client";
import type { ExecuteResult, SqlStatement, StatementExecutor } from "./libsql_dialect.ts";

/** Streams kept open for reads: reads of concurrent requests run side by side on the server. */
const READ_STREAMS = 4;

/** A libSQL server URL as @libsql/client reads it: `libsql:` is TLS unless `?tls=0`. */
export function hranaEndpoint(url: string): { url: string; authToken?: string } {
  const query = new URL(url).searchParams;
  const authToken = query.get("authToken") ?? undefined;
  const tls = query.get("tls") !== "0";
  const parsed = new URL(url.replace(/^libsql:/, tls ? "wss:" : "ws:"));
  parsed.searchParams.delete("authToken");
  parsed.searchParams.delete("tls");
  return { url: parsed.toString(), authToken };
}

/**
 * Reads from a libSQL server on Hrana streams kept open. @libsql/client opens a stream for every
 * `execute`, and sqld sets up a connection for each stream: about 1.5 ms of the server's CPU per
 * read, against 0.2 ms on a stream kept open (`bench/sqld_reads.ts`). Each read is a
 * single-statement request: a `batch` request with large messages took about 44 ms on a kept
 * WebSocket stream, which is also why writes stay on @libsql/client, a stream each. A stream or
 * connection that broke is replaced at the next read.
 */
export class RemoteReader implements StatementExecutor {
  readonly #endpoint: { url: string; authToken?: string };
  readonly #streams: (Stream | null)[] = Array.from({ length: READ_STREAMS }, () => null);
  #connection: ReturnType<typeof openWs> | ReturnType<typeof openHttp> | null = null;
  #turn = 0;
  #closed = false;

  constructor(url: string) {
    this.#endpoint = hranaEndpoint(url);
  }

  async execute(statement: SqlStatement): Promise<ExecuteResult> {
    const slot = this.#turn++ % READ_STREAMS;
    const stream = this.#streams[slot] = this.#usable(this.#streams[slot]);
    try {
      return toResult(await stream.query(toHrana(statement)));
    } catch (error) {
      if (!stream.closed) throw error;
      this.#streams[slot] = null;
      // A read changes nothing, so one that met a closed connection (the server restarted, or
      // dropped it while idle) is sent once more on a new one instead of failing a request.
      if (!(error instanceof ClosedError)) throw error;
      const fresh = this.#streams[slot] = this.#usable(null);
      return toResult(await fresh.query(toHrana(statement)));
    }
  }

  close(): void {
    this.#closed = true;
    // Each stream is closed on the server too: an HTTP one would otherwise stay open there
    // until it expires.
    for (const stream of this.#streams) stream?.close();
    this.#connection?.close();
    this.#connection = null;
  }

  /** `stream` if still open, else a new stream (on a new connection if that one closed). */
  #usable(stream: Stream | null): Stream {
    if (stream && !stream.closed) return stream;
    if (this.#closed) throw new ClosedError("The database is closed.", undefined);
    if (!this.#connection || this.#connection.closed) {
      const { url, authToken } = this.#endpoint;
      this.#connection = /^wss?:/.test(url) ? openWs(url, authToken) : openHttp(url, authToken);
      this.#streams.fill(null);
    }
    return this.#connection.openStream();
  }
}

function toHrana({ sql, args }: SqlStatement): [string, never[]] {
  return [sql, args as never[]];
}

function toResult(result: RowsResult): ExecuteResult {
  return {
    rows: result.rows as unknown as Record<string, unknown>[],
    rowsAffected: result.affectedRowCount,
    lastInsertRowid: result.lastInsertRowid,
  };
}
