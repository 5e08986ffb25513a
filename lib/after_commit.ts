import type { Store } from "../db/client.ts";

/**
 * Runs `action` once after the next commit of `store`. Called inside a write, that is the commit
 * of that write; if it rolls back, `action` runs after a later commit instead, so it must be
 * harmless to run when nothing changed (waking a job is).
 */
export function afterCommit<S>(store: Store<S>, action: () => void): void {
  // NOTE: a write's promise may resolve before its commit (an idempotent request holds its
  // transaction open until the response is stored), so waking a job there could let it look
  // before the change is visible and go back to sleep.
  const remove = store.onCommit(() => {
    remove();
    action();
  });
}
