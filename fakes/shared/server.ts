/**
 * A fake listening on 127.0.0.1, which can close its listener for a while and open it again on
 * the same port: an acquirer whose servers refuse connections, not one that answers 5xx.
 */

/** A fake's listener. */
export interface Listener {
  /** e.g. `http://127.0.0.1:8790`. */
  url: string;
  port: number;
  /** Closes the listener (connections are refused) for `ms`, then listens again. */
  refuseFor(ms: number): void;
  /** Whether connections are refused now. */
  refusing(): boolean;
  close(): Promise<void>;
}

/** Listens on `hostname:port` (a free port when 0) and answers with `handler`. */
export async function listen(
  handler: (request: Request) => Promise<Response> | Response,
  options: { port: number; hostname: string },
): Promise<Listener> {
  let server = await serve(handler, options.hostname, options.port);
  const port = server.addr.port;
  let refusedUntil = 0;
  let reopening: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const draining = new Set<Deno.HttpServer<Deno.NetAddr>>();
  return {
    url: `http://${options.hostname}:${port}`,
    port,
    refuseFor(ms) {
      if (closed) return;
      refusedUntil = Date.now() + ms;
      if (reopening !== null) clearTimeout(reopening);
      // NOTE: the answer to the request that asked for the outage leaves before the listener goes.
      const current = server;
      draining.add(current);
      setTimeout(() => void current.shutdown().then(() => draining.delete(current)), 0);
      // The old server may still be finishing a hung request; its listener is already gone.
      reopening = setTimeout(async () => {
        reopening = null;
        if (!closed) server = await serve(handler, options.hostname, port);
      }, ms);
    },
    refusing: () => Date.now() < refusedUntil,
    async close() {
      closed = true;
      if (reopening !== null) clearTimeout(reopening);
      await Promise.all([...new Set([...draining, server])].map((old) => old.shutdown()));
    },
  };
}

function serve(
  handler: (request: Request) => Promise<Response> | Response,
  hostname: string,
  port: number,
): Promise<Deno.HttpServer<Deno.NetAddr>> {
  return new Promise((resolve) => {
    const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
      hostname,
      port,
      onListen: () => queueMicrotask(() => resolve(server)),
    }, handler);
  });
}

/** The error `fetch` throws when nothing listens: what an in-process fake throws while refusing. */
export function connectionRefused(url: string): TypeError {
  return new TypeError(`error sending request for url (${url}): connection refused`);
}
