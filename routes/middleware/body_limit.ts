import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../lib/errors.ts";

/** Caps a request body at `maxBytes`; a bigger one is a 413 `body_too_large` saying `message`. */
export function limitBody(maxBytes: number, message: string): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError("body_too_large", message);
    },
  });
}

/**
 * Reads a request body, stopping once it is past `maxBytes`: what it returns is the whole body,
 * or its first `maxBytes + 1` bytes, so the caller can tell (and say where) it was too large
 * without ever holding more.
 */
export async function readBodyUpTo(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    while (size <= maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const body = new Uint8Array(Math.min(size, maxBytes + 1));
  let offset = 0;
  for (const part of parts) {
    const take = part.subarray(0, body.byteLength - offset);
    body.set(take, offset);
    offset += take.byteLength;
    if (offset === body.byteLength) break;
  }
  return body;
}
