import type { ListObjectsV2CommandOutput, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import type { S3Settings } from "../config.ts";

/** One object of the store. */
export interface StoredObject {
  key: string;
  sizeBytes: number;
  modifiedAt: number;
}

/** The few calls off-site backups make to one bucket of an S3-compatible store. */
export interface OffsiteStore {
  /** Every object whose key starts with `prefix`. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Uploads the file at `path` as `key` (multipart when large). */
  upload(key: string, path: string, signal?: AbortSignal): Promise<void>;
  /** The object's bytes as a stream. */
  download(key: string): Promise<ReadableStream<Uint8Array>>;
  remove(key: string): Promise<void>;
}

/** Part size of a multipart upload: S3's minimum is 5 MiB; two parts are in flight at once. */
const PART_BYTES = 8 * 1024 * 1024;

/** How the store is reached: the scheduled uploads retry on their own; `doctor` asks once. */
interface StoreOptions {
  maxAttempts?: number;
  requestTimeoutMs?: number;
}

type Sdk = typeof import("@aws-sdk/client-s3");
type Upload = typeof import("@aws-sdk/lib-storage").Upload;

/** The loaded S3 package, for telling the store's errors apart; null until a store was used. */
let sdk: Sdk | null = null;
let loading: Promise<{ sdk: Sdk; Upload: Upload }> | null = null;

/**
 * The S3 client's packages, imported at the first call to a store (string literals, which
 * `deno compile` embeds): about 20 MiB resident that a process without off-site backups should
 * not hold. A failed import fails that call; the next one tries again.
 */
function loadSdk(): Promise<{ sdk: Sdk; Upload: Upload }> {
  loading ??= Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage")])
    .then(([client, storage]) => {
      sdk = client;
      return { sdk: client, Upload: storage.Upload };
    })
    .catch((error) => {
      loading = null;
      throw error;
    });
  return loading;
}

function client(s3: Sdk, settings: S3Settings, options: StoreOptions): S3Client {
  return new s3.S3Client({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint, forcePathStyle: true }),
    ...(settings.accessKeyId && settings.secretAccessKey && {
      credentials: {
        accessKeyId: settings.accessKeyId,
        secretAccessKey: settings.secretAccessKey,
      },
    }),
    // NOTE: checksums only where S3 requires them: many S3-compatible stores refuse the SDK's
    // newer default trailing checksums, and age's own MACs already guard every chunk.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: options.maxAttempts ?? 3,
    requestHandler: {
      connectionTimeout: 5_000,
      requestTimeout: options.requestTimeoutMs ?? 60_000,
    },
  });
}

/** Opens `bucket` of the store `settings` name. */
export function openOffsiteStore(
  settings: S3Settings,
  bucket: string,
  options: StoreOptions = {},
): OffsiteStore {
  let s3: S3Client | null = null;
  const open = async () => {
    const loaded = await loadSdk();
    s3 ??= client(loaded.sdk, settings, options);
    return { s3, ...loaded };
  };
  return {
    async list(prefix) {
      const found: StoredObject[] = [];
      const { s3, sdk } = await open();
      let token: string | undefined;
      do {
        const page: ListObjectsV2CommandOutput = await s3.send(
          new sdk.ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ContinuationToken: token,
          }),
        );
        for (const item of page.Contents ?? []) {
          if (item.Key === undefined) continue;
          found.push({
            key: item.Key,
            sizeBytes: item.Size ?? 0,
            modifiedAt: item.LastModified?.getTime() ?? 0,
          });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found;
    },
    async upload(key, path, signal) {
      const { s3, Upload } = await open();
      const file = await Deno.open(path, { read: true });
      const upload = new Upload({
        client: s3,
        params: {
          Bucket: bucket,
          Key: key,
          Body: file.readable,
          ContentType: "application/octet-stream",
        },
        partSize: PART_BYTES,
        queueSize: 2,
        leavePartsOnError: false,
      });
      const abort = () => upload.abort();
      signal?.addEventListener("abort", abort);
      try {
        await upload.done();
      } finally {
        signal?.removeEventListener("abort", abort);
        // The stream closes the file once read to the end; a failed upload leaves it open.
        try {
          file.close();
        } catch {
          // already closed
        }
      }
    },
    async download(key) {
      const { s3, sdk } = await open();
      const object = await s3.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!object.Body) throw new Error(`the store sent no body for ${key}`);
      return object.Body.transformToWebStream() as ReadableStream<Uint8Array>;
    },
    async remove(key) {
      const { s3, sdk } = await open();
      await s3.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}

/** The store's error code (`NoSuchBucket`, `AccessDenied`, ...), or null for a network failure. */
export function storeErrorCode(error: unknown): string | null {
  return isStoreError(error) ? error.name : null;
}

/** Only the S3 package throws its errors, so none is one before it was loaded. */
function isStoreError(error: unknown): error is S3ServiceException {
  return sdk !== null && error instanceof sdk.S3ServiceException;
}

/** Why a call failed, in words an operator can act on (never a credential). */
export function describeStoreError(error: unknown): string {
  if (isStoreError(error)) {
    const status = error.$metadata.httpStatusCode;
    return `${error.name}${status ? ` (HTTP ${status})` : ""}: ${error.message}`;
  }
  const cause = (error as { cause?: unknown })?.cause;
  const message = (error as Error)?.message ?? String(error);
  return cause instanceof Error && !message.includes(cause.message)
    ? `${message} (${cause.message})`
    : message;
}
