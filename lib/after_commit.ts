import type { Kysely } from "kysely";
import { afterCommitOf } from "../db/group_commit.ts";

/**
 * Runs `action` once the write whose callback received `trx` is committed and durable, and never
 * if it rolls back. Every wake-up that follows a write goes through here: `ctx.write` may resolve
 * before its commit (an idempotent request's write commits with its stored response), so code
 * after `await ctx.write(...)` must not assume the change is visible to a job yet.
 */
export function afterCommit<S>(trx: Kysely<S>, action: () => void): void {
  afterCommitOf(trx, action);
}
