import type { Config } from "../config.ts";
import { passphraseOpens } from "./encryption.ts";
import { objectUrl } from "./offsite.ts";
import { describeStoreError, openOffsiteStore, storeErrorCode } from "./offsite_store.ts";

/** What `doctor` prints for one problem. */
interface Problem {
  what: string;
  fix: string;
}

const REFUSED = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "AccessDenied",
  "Forbidden",
  "InvalidToken",
]);

/**
 * Checks `BACKUP_S3_URL` with real calls: the store answers, the bucket exists, the key may list
 * the prefix, and `BACKUP_PASSPHRASE` opens the newest copy there (its header only).
 */
export async function checkOffsite(config: Config): Promise<Problem[]> {
  const location = config.offsite;
  if (!location) return [];
  const where = objectUrl(location, location.prefix);
  const endpoint = config.s3.endpoint ?? `AWS S3 (${config.s3.region})`;
  const store = openOffsiteStore(config.s3, location.bucket, {
    maxAttempts: 1,
    requestTimeoutMs: 5_000,
  });
  let keys: string[];
  try {
    keys = (await store.list(location.prefix)).map((object) => object.key);
  } catch (error) {
    const code = storeErrorCode(error);
    if (code === "NoSuchBucket") {
      return [{
        what: `The bucket ${location.bucket} of BACKUP_S3_URL does not exist at ${endpoint}.`,
        fix: "Create the bucket, or correct BACKUP_S3_URL (and BACKUP_S3_ENDPOINT).",
      }];
    }
    if (code !== null && REFUSED.has(code)) {
      return [{
        what: `The store at ${endpoint} refused to list ${where} (${describeStoreError(error)}).`,
        fix:
          "Check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, and that the key may list, read, write and delete objects under that prefix.",
      }];
    }
    return [{
      what: `The off-site store at ${endpoint} does not answer for ${where} (${
        describeStoreError(error)
      }).`,
      fix:
        "Check BACKUP_S3_ENDPOINT and BACKUP_S3_REGION, and that this machine can reach the store.",
    }];
  }
  const newest = keys.filter((key) => /-\d{8}T\d{6}Z\.db\.age$/.test(key))
    .sort((a, b) => a.slice(-23).localeCompare(b.slice(-23))).pop();
  if (!newest) return [];
  try {
    if (await passphraseOpens(await store.download(newest), config.backupPassphrase!)) return [];
    return [{
      what: `BACKUP_PASSPHRASE does not decrypt the newest off-site copy ${
        objectUrl(location, newest)
      }.`,
      fix:
        "Set BACKUP_PASSPHRASE to the passphrase the copies were made with; a copy restores only with its own passphrase.",
    }];
  } catch (error) {
    return [{
      what: `The newest off-site copy ${objectUrl(location, newest)} could not be read (${
        describeStoreError(error)
      }).`,
      fix: "Check that the key may read objects under BACKUP_S3_URL's prefix.",
    }];
  }
}
