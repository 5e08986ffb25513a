import type { Environment } from "../config.ts";
import { ApiError } from "../errors.ts";

/** scheme://host[:port] and nothing else: no user, path, query or fragment. */
const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+$/i;

/** DNS labels or a bracketed IPv6 address: nothing that could break out of a CSP header. */
const HOSTNAME =
  /^(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[[0-9a-f:.]+\])$/;

/** Tells whether a URL host names this machine, where the sandbox accepts plain http. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") ||
    hostname === "127.0.0.1" || hostname === "[::1]";
}

/** Tells whether a page at `url` may embed checkout in `environment`. */
function isSecureEnough(url: URL, environment: Environment): boolean {
  return url.protocol === "https:" ||
    (url.protocol === "http:" && environment === "sandbox" && isLoopbackHost(url.hostname));
}

const SCHEME_RULE = "must use https:// (http:// is accepted only for localhost in the sandbox)";

/** Parses one allowlist entry into its normalised origin, or throws 400 naming `param`. */
export function parseAllowedOrigin(raw: string, environment: Environment, param: string): string {
  if (raw.includes("*")) {
    throw new ApiError(
      "parameter_invalid",
      `'${param}': wildcards are not allowed; list each origin that embeds the checkout.`,
      { param },
    );
  }
  let url: URL | undefined;
  try {
    if (ORIGIN_SHAPE.test(raw)) url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || !HOSTNAME.test(url.hostname)) {
    throw new ApiError(
      "parameter_invalid",
      `'${param}' must be an origin, scheme://host[:port] with no path, such as https://shop.example (got '${raw}').`,
      { param },
    );
  }
  if (!isSecureEnough(url, environment)) {
    throw new ApiError("parameter_invalid", `'${param}' ${SCHEME_RULE}.`, { param });
  }
  return url.origin;
}

/** The origin of a session's `embedLink`, or 400 when the page may not embed checkout at all. */
export function embedOriginOf(embedLink: string, environment: Environment): string {
  const url = new URL(embedLink);
  if (!HOSTNAME.test(url.hostname)) {
    throw new ApiError("parameter_invalid", "'embedLink' has a host name that is not valid.", {
      param: "embedLink",
    });
  }
  if (!isSecureEnough(url, environment)) {
    throw new ApiError("parameter_invalid", `'embedLink' ${SCHEME_RULE}.`, {
      param: "embedLink",
    });
  }
  return url.origin;
}
