import { backupDatabase } from "../../db/client.ts";
import { inspectDatabase, openFile } from "../../db/inspect.ts";
import { encryptFile } from "./encryption.ts";

/** A backup job for the worker: copy `url` to `out`, then check the copy. */
export interface BackupRequest {
  url: string;
  out: string;
}

/** The worker's answer: the copy's first integrity line, or why it failed. */
export type BackupAnswer = { ok: true; integrity: string[] } | { ok: false; message: string };

/** An encryption job for the worker: `from` into a new file `to`, for an off-site copy. */
export interface EncryptRequest {
  encrypt: { from: string; to: string; passphrase: string };
}

/** The encrypted file's size, or why it failed. */
export type EncryptAnswer = { ok: true; sizeBytes: number } | { ok: false; message: string };

async function copyAndCheck(request: BackupRequest): Promise<BackupAnswer> {
  try {
    await backupDatabase(request.url, request.out);
    const connection = openFile(request.out);
    try {
      return { ok: true, integrity: (await inspectDatabase(connection)).integrity };
    } finally {
      connection.close();
    }
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

async function encrypt({ encrypt }: EncryptRequest): Promise<EncryptAnswer> {
  try {
    return { ok: true, sizeBytes: await encryptFile(encrypt.from, encrypt.to, encrypt.passphrase) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

// NOTE: the backup copy and integrity_check are synchronous native calls that take about a second
// per 50 MB, and age's scrypt holds its thread as long; run here, off the server's event loop,
// they never stall a request.
(self as unknown as Worker).onmessage = async (
  event: MessageEvent<BackupRequest | EncryptRequest>,
) => {
  const request = event.data;
  (self as unknown as Worker).postMessage(
    "encrypt" in request ? await encrypt(request) : await copyAndCheck(request),
  );
};
