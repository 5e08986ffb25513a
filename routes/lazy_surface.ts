import { type Context, type ErrorHandler, Hono, type MiddlewareHandler } from "hono";
import { ApiError } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import type { AppEnv } from "./env.ts";

/** The app's context of each request a surface answers: it takes over its variables. */
const parents = new WeakMap<Request, Context<AppEnv>>();
/** Requests none of a surface's routes took: the app's next route decides them. */
const unmatched = new WeakSet<Request>();

/**
 * A part of the app (the panel, the customer's pages) whose module is imported on its first
 * request, not at start: a payment API that serves no page holds none of their components,
 * catalogues and views. Concurrent first requests share one import; a failed import is answered
 * 503 and tried again by the next request.
 */
export class LazySurface<E extends AppEnv = AppEnv> {
  readonly #load: () => Promise<Hono<E>>;
  readonly #onError: ErrorHandler<AppEnv>;
  readonly #log: Logger;
  #app: Promise<Hono<AppEnv>> | null = null;
  #loaded = false;

  /**
   * `load` imports the surface's module (by a string literal, which `deno compile` embeds) and
   * builds its routes; `onError` is the app's own, for routes the surface does not handle itself.
   */
  constructor(
    readonly name: string,
    load: () => Promise<Hono<E>>,
    options: { onError: ErrorHandler<AppEnv>; log: Logger },
  ) {
    this.#load = load;
    this.#onError = options.onError;
    this.#log = options.log;
  }

  /** Whether the surface's module has been loaded. */
  get loaded(): boolean {
    return this.#loaded;
  }

  /**
   * Answers a request with the surface's routes, in the app's request context (its request id
   * and connection); a path none of them takes goes on to the app's next route, as it did when
   * the surface was mounted at start.
   */
  readonly handler: MiddlewareHandler<AppEnv> = async (c, next) => {
    const app = await this.#ready().catch((error) => {
      this.#log.error("a part of the app could not be loaded", {
        surface: this.name,
        error: String(error),
      });
      throw new ApiError(
        "service_unavailable",
        "This page cannot be shown right now; nothing was changed. Retry in a moment.",
        { headers: { "Retry-After": "5" } },
      );
    });
    parents.set(c.req.raw, c);
    const response = await app.fetch(c.req.raw, c.env);
    if (unmatched.has(c.req.raw)) return await next();
    return response;
  };

  #ready(): Promise<Hono<AppEnv>> {
    this.#app ??= this.#build().catch((error) => {
      this.#app = null;
      throw error;
    });
    return this.#app;
  }

  async #build(): Promise<Hono<AppEnv>> {
    const started = performance.now();
    const surface = await this.#load();
    const app = new Hono<AppEnv>();
    app.use("*", async (inner, next) => {
      const parent = parents.get(inner.req.raw)!;
      for (const [key, value] of Object.entries(parent.var)) {
        inner.set(key as keyof AppEnv["Variables"], value as never);
      }
      await next();
      // The request log and metrics name the route that answered, as before the surface was lazy.
      if (!unmatched.has(inner.req.raw)) parent.set("route", inner.req.routePath);
    });
    app.route("/", surface);
    app.notFound((inner) => {
      unmatched.add(inner.req.raw);
      return inner.body(null, 404);
    });
    app.onError(this.#onError);
    this.#loaded = true;
    this.#log.info("a part of the app was loaded at its first request", {
      surface: this.name,
      ms: Math.round(performance.now() - started),
    });
    return app;
  }
}
