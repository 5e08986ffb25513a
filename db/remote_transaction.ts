import type { WriteBatch } from "./group_commit.ts";
import { type KeptStream, toExecuteResult, toHrana } from "./remote_connection.ts";

/**
 * Opens a write transaction on a libSQL server, on a stream kept open for them: the group-commit
 * writer runs one at a time. Resolves once the server has given it the write lock.
 */
export async function beginRemoteWrite(transactions: KeptStream): Promise<WriteBatch> {
  const stream = transactions.get();
  await stream.run("BEGIN IMMEDIATE");
  // A transaction that did not end cleanly must not stay open for the next one to inherit.
  const ending = (statement: string) => () =>
    stream.run(statement).then(() => undefined, (error) => {
      transactions.discard();
      throw error;
    });
  return {
    executor: {
      execute: async (statement) => toExecuteResult(await stream.query(toHrana(statement))),
    },
    commit: ending("COMMIT"),
    rollback: ending("ROLLBACK"),
  };
}
