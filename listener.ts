import { errorFields, type Logger } from "./lib/log.ts";

/** Where and what a `Listener` serves. */
interface ListenerOptions {
  hostname: string;
  port: number;
  handler: Deno.ServeHandler<Deno.NetAddr>;
  log: Logger;
  /** Called on every failure: `accept` when a listener died, `listen` when starting one failed. */
  onFailure?: (stage: "accept" | "listen") => void;
}

/** The first wait before listening again, doubled after each failure up to the second. */
const MIN_RETRY_MS = 100;
const MAX_RETRY_MS = 2_000;

/**
 * `Deno.serve` that survives its own listener. Past the file limit (a flood of connections),
 * Deno's accept loop fails and the server's `finished` promise rejects with "Too many open
 * files", which, unhandled, would end the process. Here the failure is logged once per episode
 * and counted, the failed listener is closed, and the port is listened on again as soon as a
 * socket can be opened; connections already accepted are served meanwhile. A request accepted
 * by the new listener ends the episode (logged too).
 */
export class Listener {
  readonly #options: ListenerOptions;
  #server: Deno.HttpServer<Deno.NetAddr> | null = null;
  /** Failed listeners still finishing the connections they had accepted. */
  readonly #retired = new Set<Deno.HttpServer<Deno.NetAddr>>();
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #retryMs = MIN_RETRY_MS;
  /** Failures in the current episode; 0 while serving normally. */
  #failures = 0;
  #stopping = false;

  constructor(options: ListenerOptions) {
    this.#options = options;
  }

  /**
   * Starts listening; throws if the first listener cannot start (port taken, bad address). The
   * port is bound when it returns.
   */
  start(): void {
    this.#listen();
  }

  /** Stops listening and waits for requests in flight, on failed listeners too. */
  async shutdown(): Promise<void> {
    this.#stopping = true;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    await Promise.all([this.#server, ...this.#retired].map((server) => server?.shutdown()));
  }

  #listen(): Deno.HttpServer<Deno.NetAddr> {
    const { hostname, port, handler } = this.#options;
    // The caller says it is listening once start() returns; Deno's own line is not printed.
    const server = Deno.serve({ hostname, port, onListen: () => {} }, (request, info) => {
      // Only a request this listener accepted ends the episode: connections the failed one
      // accepted earlier are still served meanwhile.
      if (this.#failures > 0 && this.#server === server) this.#recovered();
      return handler(request, info);
    });
    this.#server = server;
    server.finished.then(
      () => {
        if (!this.#stopping && this.#server === server) {
          this.#failed("accept", new Error("the listener closed"));
        }
      },
      (error) => {
        if (this.#stopping || this.#server !== server) return;
        // NOTE: a failed accept loop may leave its listening socket open (a descriptor the
        // flood needs, and a port a new listener cannot take): close it. Its connections
        // still finish; shutdown() waits for them too.
        this.#retired.add(server);
        server.shutdown().catch(() => {}).finally(() => this.#retired.delete(server));
        this.#failed("accept", error);
      },
    );
    return server;
  }

  #failed(stage: "accept" | "listen", error: unknown): void {
    this.#server = null;
    this.#options.onFailure?.(stage);
    this.#failures++;
    if (this.#failures === 1) {
      // NOTE: one line per episode: a flood makes the listener fail again and again.
      this.#options.log.error("the listener failed; listening again as soon as it can", {
        port: this.#options.port,
        stage,
        ...errorFields(error),
      });
    }
    const wait = this.#retryMs;
    this.#retryMs = Math.min(wait * 2, MAX_RETRY_MS);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      if (this.#stopping) return;
      try {
        this.#listen();
      } catch (error) {
        this.#failed("listen", error);
      }
    }, wait);
  }

  #recovered(): void {
    this.#options.log.warn("the listener serves again", {
      port: this.#options.port,
      failures: this.#failures,
    });
    this.#failures = 0;
    this.#retryMs = MIN_RETRY_MS;
  }
}
