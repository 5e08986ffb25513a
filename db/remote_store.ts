import type { WriteBatch } from "./group_commit.ts";
import type { StatementExecutor } from "./libsql_dialect.ts";
import { RemoteBatchWriter, type RemoteCommitListeners } from "./remote_batch.ts";
import { isUnreachable, RemoteConnection } from "./remote_connection.ts";
import { RemoteReader } from "./remote_reader.ts";
import { beginRemoteWrite } from "./remote_transaction.ts";
import type { StorageHealth } from "./storage_health.ts";

/** What a store on a libSQL server is made of. */
export interface RemoteParts {
  reader: StatementExecutor;
  /** Opens an interactive write transaction (the group-commit writer runs one at a time). */
  openBatch(): Promise<WriteBatch>;
  /** The writer of declared writes, one request per batch of them. */
  batchWriter(health: StorageHealth, listeners: RemoteCommitListeners): RemoteBatchWriter;
  /** Whether a failure says the server could not be reached (see `StorageHealth`). */
  isUnreachable(error: unknown): boolean;
  close(): void;
}

/**
 * A store's reads, transactions and declared writes on one connection to a libSQL server, each
 * on streams of its own kept open.
 */
export function connectRemote(url: string): RemoteParts {
  const connection = new RemoteConnection(url);
  const transactions = connection.keptStream();
  return {
    reader: new RemoteReader(connection),
    openBatch: () => beginRemoteWrite(transactions),
    batchWriter: (health, listeners) =>
      new RemoteBatchWriter(connection.keptStream(), health, listeners),
    isUnreachable,
    close: () => connection.close(),
  };
}
