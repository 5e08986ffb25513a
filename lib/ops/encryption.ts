/**
 * age, imported at the first file encrypted or decrypted (a string literal, which `deno compile`
 * embeds): the server encrypts in its backup worker, so its own isolate never needs it.
 */
function age() {
  return import("age-encryption");
}

/** The suffix of an encrypted backup: `age -d` decrypts it with the same passphrase. */
export const ENCRYPTED_SUFFIX = ".age";

/** A passphrase that does not open the file: nothing was written. */
export class WrongPassphraseError extends Error {}

/**
 * Encrypts the file `from` into the file `to` (made 0600, emptied first) with age's passphrase (scrypt) recipient,
 * a chunk at a time; returns the encrypted size. The scrypt step holds the thread about a second:
 * the server runs this in its backup worker.
 */
export async function encryptFile(from: string, to: string, passphrase: string): Promise<number> {
  const encrypter = new (await age()).Encrypter();
  encrypter.setPassphrase(passphrase);
  const source = await Deno.open(from, { read: true });
  const encrypted = await encrypter.encrypt(source.readable);
  const target = await Deno.open(to, { write: true, create: true, truncate: true, mode: 0o600 });
  await encrypted.pipeTo(target.writable);
  return (await Deno.stat(to)).size;
}

/**
 * Decrypts `source` into the file `to` (made 0600, emptied first). A passphrase that does not match throws
 * `WrongPassphraseError` before anything is written; a damaged or foreign file throws as age
 * reports it.
 */
export async function decryptToFile(
  source: ReadableStream<Uint8Array>,
  to: string,
  passphrase: string,
): Promise<void> {
  const decrypter = new (await age()).Decrypter();
  decrypter.addPassphrase(passphrase);
  let plain: ReadableStream<Uint8Array>;
  try {
    plain = await decrypter.decrypt(source);
  } catch (error) {
    await source.cancel().catch(() => {});
    if ((error as Error).message === "no identity matched any of the file's recipients") {
      throw new WrongPassphraseError((error as Error).message);
    }
    throw error;
  }
  const target = await Deno.open(to, { write: true, create: true, truncate: true, mode: 0o600 });
  await plain.pipeTo(target.writable);
}

/** Whether `passphrase` opens the encrypted `source`: reads its header only, then cancels it. */
export async function passphraseOpens(
  source: ReadableStream<Uint8Array>,
  passphrase: string,
): Promise<boolean> {
  const decrypter = new (await age()).Decrypter();
  decrypter.addPassphrase(passphrase);
  try {
    await (await decrypter.decrypt(source)).cancel();
    return true;
  } catch (error) {
    await source.cancel().catch(() => {});
    if ((error as Error).message === "no identity matched any of the file's recipients") {
      return false;
    }
    throw error;
  }
}
