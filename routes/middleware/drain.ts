import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../lib/errors.ts";
import type { AppEnv } from "../env.ts";

/**
 * Graceful stop for the HTTP side: counts requests in flight and, once draining, answers new
 * ones 503 with `Connection: close` so clients and load balancers go elsewhere. (Deno's own
 * server shutdown cuts off requests whose bodies are still arriving.)
 */
export class RequestDrain {
  #inFlight = 0;
  #draining = false;
  #idle: (() => void) | null = null;

  /** Whether the process is stopping. */
  get draining(): boolean {
    return this.#draining;
  }

  readonly middleware: MiddlewareHandler<AppEnv> = async (_c, next) => {
    if (this.#draining) {
      throw new ApiError(
        "service_unavailable",
        "This server is shutting down; retry the request.",
        {
          headers: { "Connection": "close", "Retry-After": "1" },
        },
      );
    }
    this.#inFlight++;
    try {
      await next();
    } finally {
      this.#inFlight--;
      if (this.#inFlight === 0) this.#idle?.();
    }
  };

  /** Stops taking requests; resolves when those in flight have finished. */
  drain(): Promise<void> {
    this.#draining = true;
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#idle = resolve));
  }
}
