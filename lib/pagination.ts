import { ApiError } from "./errors.ts";
import type { ListQuery, Page } from "./schemas.ts";

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
    const cursor = await findCursor(query.startingAfter);
    if (!cursor) {
      throw new ApiError(
        "parameter_invalid",
        `startingAfter: no item with id '${query.startingAfter}' in this list.`,
        { param: "startingAfter" },
      );
    }
    beforeId = cursor.id;
  }
  const rows = await fetch(beforeId, query.limit + 1);
  return { data: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}
