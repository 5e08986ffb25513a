import type { Context } from "hono";
import type { ApiKeyAuthenticator } from "../../lib/api_keys.ts";
import type { Services } from "../../lib/context.ts";
import { orgContextOnClock } from "../../lib/sandbox_clock.ts";
import type { AppEnv } from "../env.ts";

/** Authenticates the request's API key (401) and scopes the request to its organisation. */
export async function authenticateApiKey(
  c: Context<AppEnv>,
  services: Services,
  authenticator: ApiKeyAuthenticator,
): Promise<void> {
  const header = c.req.header("authorization");
  const principal = await authenticator.authenticate(header);
  c.set("principal", principal);
  c.set("reauthenticate", () => authenticator.authenticate(header));
  c.set("ctx", await orgContextOnClock(services, principal.orgId));
}
