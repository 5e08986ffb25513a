import { ApiError } from "./errors.ts";
import type { ListQuery, Page } from "./schemas.ts";

/** Finds the row a `startingAfter` id names, or throws 400 naming the parameter. */
export async function resolveCursor<T>(
  publicId: string,
  findCursor: (publicId: string) => Promise<T | undefined>,
  param = "startingAfter",
): Promise<T> {
  const cursor = await findCursor(publicId);
  if (!cursor) {
    throw new ApiError(
      "parameter_invalid",
      `${param}: no item with id '${publicId}' in this list.`,
      {
        param,
      },
    );
  }
  return cursor;
}

/**
 * Reads one page newest first: resolves the `startingAfter` id to its row (scoped by the
 * caller's finder, so another organisation's id is unknown here) and fetches one row more than
 * the limit to learn whether more follow.
 */
export async function pageAfter<T extends { id: number }>(
  query: ListQuery,
  findCursor: (publicId: string) => Promise<T | undefined>,
  fetch: (beforeId: number | undefined, limit: number) => Promise<T[]>,
): Promise<Page<T>> {
  let beforeId: number | undefined;
  if (query.startingAfter !== undefined) {
    beforeId = (await resolveCursor(query.startingAfter, findCursor)).id;
  }
  const rows = await fetch(beforeId, query.limit + 1);
  return { data: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}
