import { StorageUnavailableError } from "../db/storage_health.ts";
import type { Services } from "./context.ts";
import { errorFields } from "./log.ts";

/**
 * Logs once when a database stops taking writes (disk full, read-only, I/O error) and once when
 * it takes them again; requests meanwhile get 503 without a log line each.
 */
export function logStorageChanges(services: Services): void {
  for (const store of [services.store, services.accounts]) {
    store.onWritableChange((writable, error) => {
      if (writable) {
        services.log.warn("storage takes writes again", { database: store.url });
      } else {
        services.log.error(
          "storage cannot take writes (disk full, read-only or failing); answering 503 until it can",
          { database: store.url, ...errorFields(error?.cause ?? error) },
        );
      }
    });
  }
}

/** Tells whether `error` is a storage failure, which the store has logged already. */
export function isStorageUnavailable(error: unknown): boolean {
  return error instanceof StorageUnavailableError;
}
