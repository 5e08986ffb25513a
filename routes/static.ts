import { createHash } from "node:crypto";
import { Hono } from "hono";
import type { AppEnv } from "./env.ts";

/** Types of the files `static/` holds; anything else is not served. */
const CONTENT_TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
};

/** A plain file name: no directories, so nothing outside `static/` can be named. */
const ASSET_NAME = /^[a-z0-9][a-z0-9_-]*\.([a-z0-9]+)$/;

/** A year: a versioned URL never changes content. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** An unversioned URL (embed.js in merchants' pages) picks up a new release within minutes. */
const SHORT_LIVED = "public, max-age=300";

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** A hash of the content: the `?v=` of asset URLs and the ETag. */
  version: string;
}

const assets = new Map<string, Asset | null>();

/**
 * Reads a file of `static/` once per process. The path is relative to this module, which is
 * also where `deno compile --include static` puts the files, so the binary serves them too.
 */
function loadAsset(name: string): Asset | null {
  if (assets.has(name)) return assets.get(name)!;
  const match = ASSET_NAME.exec(name);
  const contentType = match ? CONTENT_TYPES[match[1]] : undefined;
  let asset: Asset | null = null;
  if (contentType) {
    try {
      const body = Deno.readFileSync(new URL(`../static/${name}`, import.meta.url));
      const version = createHash("sha256").update(body).digest("hex").slice(0, 16);
      asset = { body, contentType, version };
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  assets.set(name, asset);
  return asset;
}

/** The URL of a static file with its content hash, so browsers may cache it for good. */
export function assetHref(name: string): string {
  const asset = loadAsset(name);
  if (!asset) throw new Error(`static/${name} does not exist; run 'deno task build'?`);
  return `/static/${name}?v=${asset.version}`;
}

/** `GET /static/{name}`: the files of `static/`, with ETags and long caching when versioned. */
export function createStaticRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/static/:name", (c) => {
    const asset = loadAsset(c.req.param("name"));
    if (!asset) return c.notFound();
    const etag = `"${asset.version}"`;
    const headers: Record<string, string> = {
      "Content-Type": asset.contentType,
      "Cache-Control": c.req.query("v") === asset.version ? IMMUTABLE : SHORT_LIVED,
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
      // Public files a merchant's page may load from another origin (embed.js).
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
    };
    if (c.req.header("if-none-match") === etag) return c.body(null, 304, headers);
    return c.body(asset.body, 200, headers);
  });
}
