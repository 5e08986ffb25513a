import { TableNode } from "kysely";
import type { Store } from "../../db/client.ts";

/** `store`, with the tables its reads name recorded in `read`. */
export function readCounted<S>(store: Store<S>, read: string[]): Store<S> {
  const db = store.db.withPlugin({
    transformQuery({ node }) {
      if (node.kind === "SelectQueryNode") {
        for (const from of node.from?.froms ?? []) {
          if (TableNode.is(from)) read.push(from.table.identifier.name);
        }
      }
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  });
  return { ...store, db };
}
