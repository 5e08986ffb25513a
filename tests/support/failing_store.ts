import type { Store } from "../../db/client.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";

/** What node:sqlite throws when the disk is full. */
export function diskFull(): Error {
  return Object.assign(new Error("database or disk is full"), {
    code: "ERR_SQLITE_ERROR",
    errcode: 13,
    errstr: "database or disk is full",
  });
}

export type FailingStore = Store<EnvironmentSchema> & { setFailing(failing: () => boolean): void };

/** `store`, whose writes end with a full-disk error inside the transaction while `failing()`. */
export function failingStore(store: Store<EnvironmentSchema>): FailingStore {
  let failing = () => false;
  return {
    url: store.url,
    db: store.db,
    get writable() {
      return store.writable;
    },
    write: (work) =>
      store.write(async (trx) => {
        const value = await work(trx);
        if (failing()) throw diskFull();
        return value;
      }),
    writeVisible: (work) =>
      store.writeVisible(async (trx) => {
        const value = await work(trx);
        if (failing()) throw diskFull();
        return value;
      }),
    writeStatement: (work) =>
      store.writeStatement(async (db) => {
        if (failing()) throw diskFull();
        return await work(db);
      }),
    writeStatements: (statements) =>
      failing() ? store.write(() => Promise.reject(diskFull())) : store.writeStatements(statements),
    writeMergeable: (kind, input) =>
      failing() ? store.write(() => Promise.reject(diskFull())) : store.writeMergeable(kind, input),
    onWritableChange: (listener) => store.onWritableChange(listener),
    onCommit: (listener) => store.onCommit(listener),
    onCommitProbe: (probe) => store.onCommitProbe(probe),
    ping: () => store.ping(),
    close: () => store.close(),
    setFailing(next) {
      failing = next;
    },
  };
}
