import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { OrgContext } from "../../lib/context.ts";
import { ApiError } from "../../lib/errors.ts";
import {
  claimKey,
  IdempotencyKeyTaken,
  IdempotentRequest,
  type RequestKey,
  settleTakenKey,
} from "../../lib/idempotency.ts";
import type { AppEnv } from "../env.ts";

/** The typed JSON answer the route declares: what `c.json(body, status)` gives. */
type JsonAnswer<B, S extends ContentfulStatusCode> =
  & Response
  & TypedResponse<JSONParsed<B>, S, "json">;

/**
 * A JSON answer already made into text (the text its Idempotency-Key keeps), typed as the
 * route declares it: the body is serialized once.
 */
export function jsonText<B, S extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  text: string,
  status: S,
): JsonAnswer<B, S> {
  const response = c.body(text, status, { "Content-Type": "application/json" });
  return response as unknown as JsonAnswer<B, S>;
}

/** How often a request runs again after finding its key stale (expired or abandoned) and removed. */
const RUNS = 3;

/**
 * Runs a POST whose one write carries its Idempotency-Key, if it has one (`run` gets it). When
 * the write finds the key there before it (IdempotencyKeyTaken), the first answer is replayed
 * with `Idempotent-Replayed: true`, or the request is a 409 (`settleTakenKey`); a stale key is
 * removed and `run` runs again.
 */
export async function keyed<R extends Response>(
  c: Context<AppEnv>,
  run: (key: RequestKey | undefined) => Promise<R>,
): Promise<R> {
  const key = c.get("requestKey");
  if (!key) return await run(undefined);
  for (let attempt = 0; attempt < RUNS; attempt++) {
    try {
      return await run(key);
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTaken)) throw error;
    }
    const taken = await settleTakenKey(c.get("ctx").services.store, key);
    if (taken.kind === "replay") {
      return c.body(taken.response.body, taken.response.status as ContentfulStatusCode, {
        "Content-Type": taken.response.contentType,
        "Idempotent-Replayed": "true",
        // The first answer of this same route, so of its type.
      }) as unknown as R;
    }
  }
  throw new ApiError(
    "idempotency_key_in_use",
    "A request with this Idempotency-Key is still running; retry after it finishes.",
  );
}

/**
 * Runs a POST's operation and answers `status` (or the status of its result) with `toBody` of
 * its result. Under an
 * Idempotency-Key the key is claimed first (a second request with it is told the first still
 * runs), and the operation's one write (`ctx.write`) stays open until the answer is made: the
 * answer is stored with the key in that transaction, so the change and its replayable answer
 * commit together or not at all. An operation that throws keeps nothing and frees the key.
 */
export function answered<T, B extends object, S extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  status: S | ((value: T) => S),
  operation: (ctx: OrgContext) => Promise<T>,
  toBody: (value: T) => B,
) {
  const statusOf = (value: T) => typeof status === "function" ? status(value) : status;
  return keyed(c, async (key) => {
    const ctx = c.get("ctx");
    if (!key) {
      const value = await operation(ctx);
      return c.json(toBody(value) as object, statusOf(value)) as JsonAnswer<B, S>;
    }
    const store = ctx.services.store;
    const request = new IdempotentRequest(store, await claimKey(store, key));
    let value: T;
    try {
      value = await operation({ ...ctx, write: request.write });
    } catch (error) {
      await request.fail();
      throw error;
    }
    const text = JSON.stringify(toBody(value));
    await request.finish({ status: statusOf(value), contentType: "application/json", body: text });
    return jsonText<B, S>(c, text, statusOf(value));
  });
}
