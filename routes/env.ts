import type { ApiPrincipal } from "../lib/api_keys.ts";
import type { OrgContext } from "../lib/context.ts";

/** Hono variables every route can read. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** Set by API authentication. */
    principal: ApiPrincipal;
    /** The calling organisation's services (API routes). */
    ctx: OrgContext;
    /** The parsed JSON request body, set by the JSON body middleware. */
    jsonBody: unknown;
  };
}
