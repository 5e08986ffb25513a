import type { Config } from "./config.ts";
import { isIpLiteral, isLoopbackHost, isPublicAddress } from "./webhooks/address_policy.ts";

/**
 * Tells whether the process listens where the internet can reach it with no reverse proxy in
 * front: `LISTEN_HOST` is every interface (`0.0.0.0`, `::`), a public address or a name other
 * than localhost, and `TRUSTED_PROXIES` names no proxy but loopback ones. Such a process faces
 * slow and half-sent connections with no timeouts (`Deno.serve` has none); `doctor` warns.
 */
export function listensPubliclyWithoutProxy(
  config: Pick<Config, "listenHost" | "trustedProxies">,
): boolean {
  const host = config.listenHost.trim().toLowerCase().replace(/^\[|\]$/g, "");
  const everyInterface = host === "0.0.0.0" || host === "::" || host === "";
  const exposed = everyInterface ||
    (isIpLiteral(host) ? isPublicAddress(host) : !isLoopbackHost(host));
  const remoteProxy = config.trustedProxies.some((address) => !isLoopbackHost(address.trim()));
  return exposed && !remoteProxy;
}
