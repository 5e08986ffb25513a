import { type Config, parseS3Url } from "../config.ts";
import type { Logger } from "../log.ts";
import { decryptToFile, WrongPassphraseError } from "./encryption.ts";
import { OpsError } from "./errors.ts";
import { describeStoreError, openOffsiteStore, storeErrorCode } from "./offsite_store.ts";
import { type DatabaseKind, restoreFrom, type RestoreSource } from "./restore.ts";
import { isDiskFull } from "./restore_staging.ts";

/** Whether `restore --from` names an object of an S3-compatible store. */
export function isOffsiteSource(from: string): boolean {
  return from.startsWith("s3://");
}

/**
 * `restore --from s3://bucket/prefix/NAME`: downloads the encrypted copy and decrypts it with
 * `BACKUP_PASSPHRASE` straight into the restore's private staged copy in the data folder (never
 * into `/tmp`), then restores (or verifies) it the way `restore --from FILE` does. Whatever fails
 * before the swap changes nothing.
 */
export async function restoreFromOffsite(
  config: Config,
  options: { from: string; kind: DatabaseKind; verify: boolean; now: number },
  log: Logger,
): Promise<Awaited<ReturnType<typeof restoreFrom>>> {
  const { from } = options;
  const location = parseS3Url(from);
  const name = location?.path.split("/").pop() ?? "";
  if (!location || name === "") {
    throw new OpsError(`${from} does not name an object: use s3://bucket/prefix/NAME.`);
  }
  const passphrase = config.backupPassphrase;
  if (passphrase === null) {
    throw new OpsError(
      `BACKUP_PASSPHRASE is required to decrypt ${from}: set it to the passphrase the backups were encrypted with.`,
    );
  }
  const store = openOffsiteStore(config.s3, location.bucket);
  const source: RestoreSource = {
    from,
    sizeBytes: null,
    async writeTo(path) {
      let body: ReadableStream<Uint8Array>;
      try {
        body = await store.download(location.path);
      } catch (error) {
        const code = storeErrorCode(error);
        throw new OpsError(
          code === "NoSuchKey"
            ? `${from} does not exist; list the bucket to find the name of a copy.`
            : code === "NoSuchBucket"
            ? `The bucket ${location.bucket} does not exist at ${config.s3.endpoint ?? "AWS S3"}.`
            : `${from} could not be downloaded (${describeStoreError(error)}).`,
        );
      }
      try {
        await decryptToFile(body, path, passphrase);
      } catch (error) {
        if (isDiskFull(error)) throw error;
        throw new OpsError(
          error instanceof WrongPassphraseError
            ? `BACKUP_PASSPHRASE does not decrypt ${from}: it was encrypted with another passphrase. Nothing was changed.`
            : `${from} is not a backup Paystead encrypted, or it is damaged (${
              (error as Error).message
            }). Nothing was changed.`,
        );
      }
    },
  };
  return await restoreFrom(config, source, options, log);
}
