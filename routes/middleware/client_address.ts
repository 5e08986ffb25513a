import type { AppEnv } from "../env.ts";

/** The parts of a request context the address is read from (any Hono context has them). */
interface RequestSource {
  env: AppEnv["Bindings"] | undefined;
  req: { header(name: string): string | undefined };
}

/**
 * The address of the client: the connection's peer, or, when the peer is a trusted reverse
 * proxy, the last address it appended to X-Forwarded-For (the earlier ones are the client's own
 * claims and can be forged).
 */
export function clientAddress(c: RequestSource, trustedProxies: string[]): string {
  const remote = c.env?.remoteAddr;
  const peer = remote && "hostname" in remote ? remote.hostname : "unknown";
  if (!trustedProxies.includes(peer)) return peer;
  const forwarded = c.req.header("x-forwarded-for")?.split(",").map((part) => part.trim())
    .filter(Boolean);
  return forwarded?.at(-1) ?? peer;
}
