import type { Context } from "hono";
import type { ApiPrincipal } from "../lib/api_keys.ts";
import type { OrgContext } from "../lib/context.ts";
import type { RequestKey } from "../lib/idempotency.ts";

/** Hono variables every route can read, and the connection `Deno.serve` hands to the app. */
export interface AppEnv {
  /** Absent when the app is called without a server (`app.request` in tests). */
  Bindings: { remoteAddr?: Deno.Addr };
  Variables: {
    requestId: string;
    /** Set by API authentication. */
    principal: ApiPrincipal;
    /** Authenticates the request's key again: a long-lived response re-checks it as it goes. */
    reauthenticate: () => Promise<ApiPrincipal>;
    /** The calling organisation's services (API routes). */
    ctx: OrgContext;
    /** The parsed JSON request body, set by the JSON body middleware. */
    jsonBody: unknown;
    /** A POST's Idempotency-Key, set by the idempotency middleware when the request has one. */
    requestKey: RequestKey | undefined;
    /** The route pattern that answered, set when a part of the app loaded at first use did. */
    route: string;
  };
}

/** The route pattern that answered the request, for the request log and metrics. */
export function answeredRoute(c: Context<AppEnv>): string {
  return c.get("route") ?? c.req.routePath;
}
