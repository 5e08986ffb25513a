import type { Kysely } from "kysely";
import { afterCommitOf } from "../db/group_commit.ts";

/**
 * Runs `action` once the write whose callback received `trx` is committed and durable, and never
 * if it rolls back. Every wake-up that follows a write goes through here, whichever write it is
 * (see `RequestWrite` for why the end of `await ctx.write(...)` is too early).
 */
export function afterCommit<S>(trx: Kysely<S>, action: () => void): void {
  afterCommitOf(trx, action);
}
