/**
 * The pieces of configuration that provider folders share with lib/config.ts. A leaf module:
 * lib/config.ts imports every provider's config.ts, so what they need must not come from it.
 */
import { z } from "zod";

/** The two environments; each runs as its own process with its own database. */
export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Raised for a bad setting; the message is the one line printed before exiting. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** A variable holding an absolute http(s) URL. */
export const httpUrl = z.string().refine((value) => {
  try {
    const parsed = new URL(value);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.search === "";
  } catch {
    return false;
  }
}, "must be an absolute http:// or https:// URL without a query");

export function trimSlash(value: string): string {
  return value.replace(/\/+$/, "");
}
