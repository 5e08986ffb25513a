import type { Config } from "../config.ts";
import { ApiCallError, type ApiTarget } from "./api_client.ts";
import { listen } from "./listen.ts";
import { trigger } from "./trigger.ts";

/** The developer tools' options, as main.ts parsed them. */
interface DevtoolOptions {
  "forward-to"?: string;
  events?: string;
  "api-key"?: string;
  host?: string;
  headers?: string[];
  endpoint?: string;
}

function target(options: DevtoolOptions, config: Config): ApiTarget | null {
  const apiKey = options["api-key"] ?? Deno.env.get("PAYSTEAD_API_KEY");
  if (!apiKey) {
    console.error("Pass --api-key sk_sandbox_... or set PAYSTEAD_API_KEY.");
    return null;
  }
  return { host: (options.host ?? config.publicUrl).replace(/\/+$/, ""), apiKey };
}

function parseHeaders(values: string[] = []): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon < 1) {
      console.error(`--headers takes Name:Value; got '${value}'.`);
      return null;
    }
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

function validUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Runs `listen` until Ctrl-C; returns the exit code. */
async function runListen(options: DevtoolOptions, config: Config): Promise<number> {
  const api = target(options, config);
  const headers = parseHeaders(options.headers);
  const forwardTo = options["forward-to"];
  if (!api || !headers) return 2;
  if (!forwardTo || !validUrl(forwardTo)) {
    console.error("--forward-to takes the full http(s) URL of your local webhook handler.");
    return 2;
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    await listen({
      ...api,
      forwardTo,
      events: options.events?.split(",").map((type) => type.trim()).filter(Boolean),
      headers,
      stateDir: config.dataDir,
      endpointId: options.endpoint,
      print: (line) => console.log(line),
      signal: stop.signal,
    });
    return 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }
}

/**
 * Runs a developer tool (`listen`, `trigger EVENT`) for main.ts; returns the exit code, or
 * null when `words` name none of them.
 */
export async function runDevtool(
  words: string[],
  options: DevtoolOptions,
  config: Config,
): Promise<number | null> {
  try {
    if (words.length === 1 && words[0] === "listen") return await runListen(options, config);
    if (words[0] !== "trigger") return null;
    const api = target(options, config);
    if (!api) return 2;
    if (words.length !== 2) {
      console.error("Usage: trigger EVENT, such as trigger payment.succeeded.");
      return 2;
    }
    return await trigger(api, words[1], (line) => console.log(line)) ? 0 : 2;
  } catch (error) {
    if (!(error instanceof ApiCallError)) throw error;
    console.error(`Error: ${error.message}`);
    return 1;
  }
}
