import type { Hono } from "hono";
import type { ListenAddress } from "../lib/config.ts";
import { errorFields, type Logger } from "../lib/log.ts";

/**
 * Serves `/metrics` on its own address (`METRICS_LISTEN`, loopback by default), where
 * Prometheus scrapes it without a token. A busy or forbidden address is logged and leaves the
 * public server running: metrics are never a reason to stop taking payments.
 */
export function startMetricsListener(
  address: ListenAddress,
  app: Hono,
  log: Logger,
): Deno.HttpServer | null {
  try {
    return Deno.serve({
      hostname: address.hostname,
      port: address.port,
      onListen: () => {},
      onError: (error) => {
        log.error("metrics request failed", errorFields(error));
        return new Response("Internal Server Error", { status: 500 });
      },
    }, app.fetch);
  } catch (error) {
    log.error("metrics listener did not start; set METRICS_LISTEN to a free address or off", {
      address: `${address.hostname}:${address.port}`,
      ...errorFields(error),
    });
    return null;
  }
}
