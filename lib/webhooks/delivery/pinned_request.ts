import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { Readable } from "node:stream";

/** What an attempt reads of a receiver's answer; a fetch `Response` is one. */
export interface ReceiverAnswer {
  status: number;
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

/** A POST as an attempt sends it. */
export interface PostInit {
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/**
 * POSTs to `url` over a connection to one of `addresses` (those the address policy checked),
 * never to what the name resolves to now: a name answering a public address to the check and
 * a private one to the connection (DNS rebinding) gets nowhere. The name is kept for TLS (SNI
 * and the certificate's check) and the `Host` header. Each call opens its own connection, so
 * no pooled socket outlives the check it was made for. Redirects are not followed.
 */
export function postToCheckedAddress(
  url: URL,
  addresses: readonly string[],
  init: PostInit,
): Promise<ReceiverAnswer> {
  const pinned: LookupAddress[] = addresses.map((address) => {
    const bare = address.replace(/^\[|\]$/g, "");
    return { address: bare, family: bare.includes(":") ? 6 : 4 };
  });
  if (pinned.length === 0) return Promise.reject(new Error("No checked address to connect to."));
  // NOTE: node's connect asks this instead of DNS; `all` is how it asks for every address.
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, pinned);
    else callback(null, pinned[0].address, pinned[0].family);
  };
  const body = new TextEncoder().encode(init.body);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: "POST",
      headers: { ...init.headers, "content-length": String(body.byteLength) },
      lookup,
      agent: false,
      signal: init.signal,
    }, (response) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        for (const item of [value ?? []].flat()) headers.append(name, item);
      }
      resolve({
        status: response.statusCode ?? 0,
        headers,
        body: Readable.toWeb(response) as ReadableStream<Uint8Array>,
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}
