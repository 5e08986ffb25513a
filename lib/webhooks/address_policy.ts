import type { Config } from "../config.ts";

/** Resolves a host name to its IPv4 and IPv6 addresses; an empty list when it has none. */
export type HostResolver = (hostname: string, signal: AbortSignal) => Promise<string[]>;

/** The system resolver: A and AAAA records through `Deno.resolveDns`. */
export async function resolveHostAddresses(
  hostname: string,
  signal: AbortSignal,
): Promise<string[]> {
  const lookups = await Promise.allSettled([
    Deno.resolveDns(hostname, "A", { signal }),
    Deno.resolveDns(hostname, "AAAA", { signal }),
  ]);
  const addresses = lookups.flatMap((lookup) => lookup.status === "fulfilled" ? lookup.value : []);
  const failure = lookups.find((lookup): lookup is PromiseRejectedResult =>
    lookup.status === "rejected" && !(lookup.reason instanceof Deno.errors.NotFound)
  );
  if (addresses.length === 0 && failure) throw failure.reason;
  return addresses;
}

/** `[prefix bytes, prefix length in bits]` of address blocks that never receive webhooks. */
type Block = [number[], number];

// Loopback, private, shared (CGNAT), link-local (cloud metadata lives at 169.254.169.254),
// documentation, benchmarking, multicast and reserved space (RFC 6890 and its updates).
const FORBIDDEN_IPV4: Block[] = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[127], 8],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 0, 2], 24],
  [[192, 88, 99], 24],
  [[192, 168], 16],
  [[198, 18], 15],
  [[198, 51, 100], 24],
  [[203, 0, 113], 24],
  [[224], 4],
  [[240], 4],
];

// Unspecified, loopback and IPv4-compatible (::/96), discard, IETF protocol space (Teredo, ORCHID),
// documentation, unique-local (fc00::/7), link-local, site-local and multicast.
const FORBIDDEN_IPV6: Block[] = [
  [[], 96],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64],
  [[0x20, 0x01, 0x00], 23],
  [[0x20, 0x01, 0x0d, 0xb8], 32],
  [[0xfc], 7],
  [[0xfe, 0x80], 10],
  [[0xfe, 0xc0], 10],
  [[0xff], 8],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48],
];

/** IPv6 blocks that carry an IPv4 address in their last four bytes (mapped, NAT64). */
const EMBEDDING_IPV6: Block[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96],
  [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96],
];

function inBlock(bytes: Uint8Array, [prefix, bits]: Block): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const index = bit / 8;
    const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
    if ((bytes[index] & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? Uint8Array.from(bytes) : null;
}

function parseIpv6(text: string): Uint8Array | null {
  let head = text;
  const tail: number[] = [];
  if (text.includes(".")) {
    // A dotted IPv4 address may stand for the last two groups (`::ffff:10.0.0.1`).
    const lastColon = text.lastIndexOf(":");
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    head = text.slice(0, lastColon + 1);
    if (!head.endsWith("::")) head = head.slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => part === "" ? [] : part.split(":");
  const left = parse(halves[0]);
  const right = halves.length === 2 ? parse(halves[1]) : [];
  if (![...left, ...right].every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  const total = left.length + right.length + tail.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return null;
  const groups = [
    ...left.map((group) => parseInt(group, 16)),
    ...Array(8 - total).fill(0),
    ...right.map((group) => parseInt(group, 16)),
    ...tail,
  ];
  return Uint8Array.from(groups.flatMap((group) => [group >> 8, group & 0xff]));
}

/** Tells whether `host` (a URL host name) is an IP address literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return parseIpv4(bare) !== null || parseIpv6(bare) !== null;
}

/**
 * Tells whether `address` is a public unicast address, the only kind a production webhook may
 * reach. Anything unparsable counts as not public.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const v4 = parseIpv4(bare);
  if (v4) return !FORBIDDEN_IPV4.some((block) => inBlock(v4, block));
  const v6 = parseIpv6(bare);
  if (!v6) return false;
  if (EMBEDDING_IPV6.some((block) => inBlock(v6, block))) {
    return isPublicAddress(Array.from(v6.slice(12)).join("."));
  }
  // 6to4 (2002::/16) carries an IPv4 address in bytes 2..5.
  if (v6[0] === 0x20 && v6[1] === 0x02) {
    return isPublicAddress(Array.from(v6.slice(2, 6)).join("."));
  }
  return !FORBIDDEN_IPV6.some((block) => inBlock(v6, block));
}

/** Tells whether `host` (a URL host name or an address) is this machine's loopback. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  const v4 = parseIpv4(bare);
  if (v4) return v4[0] === 127;
  const v6 = parseIpv6(bare);
  if (!v6) return false;
  if (inBlock(v6, EMBEDDING_IPV6[0])) return v6[12] === 127;
  return v6.every((byte, index) => byte === (index === 15 ? 1 : 0));
}

/**
 * Who must send webhooks to public https addresses only, checked at registration and before
 * every attempt, the connection pinned to the checked address: production, and a sandbox served
 * beyond this machine (`PUBLIC_URL` not loopback), whose merchants could otherwise probe the
 * host's network and read the answers in the delivery log, unless the operator allows private
 * targets. `null`: a sandbox on a laptop, delivering to localhost as a developer expects.
 */
type TargetPolicy = "production" | "public_sandbox" | null;

/** The address policy webhook targets follow under `config`. */
export function webhookTargetPolicy(
  config: Pick<Config, "environment" | "publicUrl" | "webhookAllowPrivateTargets">,
): TargetPolicy {
  if (config.environment === "production") return "production";
  if (config.webhookAllowPrivateTargets) return null;
  return isLoopbackHost(new URL(config.publicUrl).hostname) ? null : "public_sandbox";
}

/** The words that say where a refused rule applies, for error messages. */
export function policyScope(policy: Exclude<TargetPolicy, null>): string {
  return policy === "production" ? "in production" : "in a sandbox served beyond this machine";
}

/** Why a URL cannot receive webhooks under `policy`, judged without DNS; null if it can. */
export function urlShapeProblem(url: URL, policy: TargetPolicy): string | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return "must be an http:// or https:// URL";
  }
  if (url.username !== "" || url.password !== "") {
    return "must not contain a user name or password; authenticate with the signature instead";
  }
  if (url.hash !== "") return "must not contain a fragment (#...)";
  if (policy === null) return null;
  const scope = policyScope(policy);
  if (url.protocol !== "https:") return `must be an https:// URL ${scope}`;
  const host = url.hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) {
    return `must not point at localhost ${scope}`;
  }
  if (isIpLiteral(host) && !isPublicAddress(host)) {
    return `must not point at a loopback, private, link-local or reserved address ${scope}`;
  }
  return null;
}

/** The outcome of checking where a URL's host resolves to. */
type HostCheck =
  | { ok: true; addresses: string[] }
  | { ok: false; code: "dns_failed" | "address_not_allowed"; message: string };

/**
 * Resolves a URL's host and checks that every address it resolves to is public (`isAllowed`,
 * which tests replace). An IP literal is checked as it is. Used at registration and again before
 * every attempt under the policy, because a name can be repointed after it was registered.
 */
export async function checkPublicHost(
  url: URL,
  resolve: HostResolver,
  signal: AbortSignal,
  isAllowed: (address: string) => boolean = isPublicAddress,
): Promise<HostCheck> {
  const host = url.hostname.toLowerCase();
  if (isIpLiteral(host)) {
    return isAllowed(host) ? { ok: true, addresses: [host] } : {
      ok: false,
      code: "address_not_allowed",
      message: `${host} is not a public address.`,
    };
  }
  let addresses: string[];
  try {
    addresses = await resolve(host, signal);
  } catch (error) {
    return {
      ok: false,
      code: "dns_failed",
      message: `Resolving ${host} failed: ${(error as Error).message}`,
    };
  }
  if (addresses.length === 0) {
    return { ok: false, code: "dns_failed", message: `${host} has no A or AAAA record.` };
  }
  const forbidden = addresses.find((address) => !isAllowed(address));
  if (forbidden !== undefined) {
    return {
      ok: false,
      code: "address_not_allowed",
      message: `${host} resolves to ${forbidden}, which is not a public address.`,
    };
  }
  return { ok: true, addresses };
}

/** Checks a URL's host before an attempt (see `checkPublicHost`). */
export type HostChecker = (url: URL, signal: AbortSignal) => Promise<HostCheck>;

/**
 * The check before every attempt: resolves the name again each time and is never cached, and
 * the attempt connects to the addresses it found (see `postToCheckedAddress`), so what the
 * name answers later, to a cache or to the connection, does not matter.
 */
export function publicHostCheck(resolve: HostResolver): HostChecker {
  return (url, signal) => checkPublicHost(url, resolve, signal);
}
