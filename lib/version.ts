import denoJson from "../deno.json" with { type: "json" };

/** Paystead's version, read from deno.json "version": the one place a release changes. */
export const VERSION: string = denoJson.version;
