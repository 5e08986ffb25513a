import { type Config, parseS3Url } from "../config.ts";
import { decryptToFile, ENCRYPTED_SUFFIX, WrongPassphraseError } from "./encryption.ts";
import { OpsError } from "./errors.ts";
import { describeStoreError, openOffsiteStore, storeErrorCode } from "./offsite_store.ts";
import { type DatabaseKind, restoreDatabase } from "./restore.ts";

/** Whether `restore --from` names an object of an S3-compatible store. */
export function isOffsiteSource(from: string): boolean {
  return from.startsWith("s3://");
}

/**
 * `restore --from s3://bucket/prefix/NAME`: downloads the encrypted copy, decrypts it with
 * `BACKUP_PASSPHRASE` into a private temporary folder, and restores (or verifies) that file the
 * way `restore --from FILE` does. Whatever fails before the swap changes nothing.
 */
export async function restoreFromOffsite(
  config: Config,
  options: { from: string; kind: DatabaseKind; verify: boolean; now: number },
): Promise<Awaited<ReturnType<typeof restoreDatabase>>> {
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
  const folder = await Deno.makeTempDir({ prefix: "paystead-offsite-restore-" });
  const plain = `${folder}/${name.endsWith(ENCRYPTED_SUFFIX) ? name.slice(0, -4) : name}`;
  try {
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
      await decryptToFile(body, plain, passphrase);
    } catch (error) {
      throw new OpsError(
        error instanceof WrongPassphraseError
          ? `BACKUP_PASSPHRASE does not decrypt ${from}: it was encrypted with another passphrase. Nothing was changed.`
          : `${from} is not a backup Paystead encrypted, or it is damaged (${
            (error as Error).message
          }). Nothing was changed.`,
      );
    }
    try {
      return await restoreDatabase(config, { ...options, from: plain });
    } catch (error) {
      // Its checks name the file they read: name the object the operator asked for instead.
      if (error instanceof OpsError) throw new OpsError(error.message.replaceAll(plain, from));
      throw error;
    }
  } finally {
    await Deno.remove(folder, { recursive: true }).catch(() => {});
  }
}
