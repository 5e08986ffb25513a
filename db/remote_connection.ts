import {
  ClosedError,
  type HttpClient,
  HttpServerError,
  openHttp,
  type RowsResult,
  type Stream,
  WebSocketError,
  WsClient,
} from "@libsql/hrana-client";
import { WebSocket } from "ws";
import type { ExecuteResult, SqlStatement } from "./libsql_dialect.ts";

/** The Hrana versions asked for over WebSocket, best first (JSON; batches with conditions). */
const WS_SUBPROTOCOLS = ["hrana2", "hrana1"];

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
 * Whether `error` says the server could not be reached or the connection to it broke, not that
 * it refused a statement: for the store, the storage is unavailable, as a full disk is for a file.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ClosedError || error instanceof WebSocketError) return true;
  // A server that restarted no longer knows the stream a request names ("invalid baton").
  if (error instanceof HttpServerError) {
    return error.status >= 500 || /invalid baton/i.test(error.message);
  }
  // Deno's fetch, under the HTTP client, rejects a refused or broken connection so.
  return error instanceof TypeError && /fetch failed|error sending request/i.test(error.message);
}

/** A statement in the shape Hrana takes. */
export function toHrana({ sql, args }: SqlStatement): [string, never[]] {
  return [sql, args as never[]];
}

/** A Hrana result in the shape the dialect expects. */
export function toExecuteResult(result: RowsResult): ExecuteResult {
  return {
    rows: result.rows as unknown as Record<string, unknown>[],
    rowsAffected: result.affectedRowCount,
    lastInsertRowid: result.lastInsertRowid,
  };
}

/**
 * One connection to a libSQL server (WebSocket or HTTP), on which streams stay open: sqld sets
 * up a connection of its own for every stream, about 1.5 ms of its CPU, so a stream per
 * statement or per transaction (what @libsql/client does) costs more than the statements.
 * A connection that closed (the server restarted, or dropped it) is replaced when next used.
 */
export class RemoteConnection {
  readonly #endpoint: { url: string; authToken?: string };
  #client: WsClient | HttpClient | null = null;
  #closed = false;

  constructor(url: string) {
    this.#endpoint = hranaEndpoint(url);
  }

  /** A stream slot of its own, opened at first use. */
  keptStream(): KeptStream {
    return new KeptStream(() => this.#openStream());
  }

  close(): void {
    this.#closed = true;
    this.#client?.close();
    this.#client = null;
  }

  #openStream(): Stream {
    if (this.#closed) throw new Error("The database is closed.");
    if (!this.#client || this.#client.closed) this.#client = this.#connect();
    return this.#client.openStream();
  }

  #connect(): WsClient | HttpClient {
    const { url, authToken } = this.#endpoint;
    if (!/^wss?:/.test(url)) return openHttp(url, authToken);
    // NOTE: not Deno's WebSocket: it writes a frame's header and payload in two writes on a
    // socket without TCP_NODELAY, so a message of a few KB waits for the server's delayed ACK,
    // 40 ms (`bench/sqld_streams.ts`: a 2.4 KB statement, 44 ms against 0.4 ms). `ws` sets
    // TCP_NODELAY.
    const socket = new WebSocket(url, WS_SUBPROTOCOLS);
    return new WsClient(socket as unknown as ConstructorParameters<typeof WsClient>[0], authToken);
  }
}

/**
 * A stream kept open for one user at a time (a reader's turn, the writer's batches): the
 * server keeps its connection, and so its state, between requests. Reopened after it closes.
 */
export class KeptStream {
  readonly #open: () => Stream;
  #stream: Stream | null = null;

  constructor(open: () => Stream) {
    this.#open = open;
  }

  /** The open stream, a new one if the last closed. */
  get(): Stream {
    const stream = this.#stream;
    if (stream && !stream.closed && !stream.client().closed) return stream;
    return this.#stream = this.#open();
  }

  /**
   * Closes the stream, so the next `get()` opens a new one: the server then ends what this one
   * left open, an unfinished transaction included.
   */
  discard(): void {
    this.#stream?.close();
    this.#stream = null;
  }
}
