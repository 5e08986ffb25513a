/**
 * Data files hold webhook secrets, key hashes and customer data: they are readable by the
 * service's user alone. Files 0600, their folders 0700.
 */
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIRECTORY_MODE = 0o700;

/**
 * Makes every file and folder this process creates from now on private to its user (umask 077),
 * whoever creates it: SQLite's WAL and shm, backups, exports.
 */
export function restrictUmask(): void {
  if (Deno.build.os !== "windows") Deno.umask(0o077);
}

/** Makes a file private to its owner (0600); a file that does not exist is left alone. */
export async function restrictFile(path: string): Promise<void> {
  if (Deno.build.os === "windows") return;
  try {
    await Deno.chmod(path, PRIVATE_FILE_MODE);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Creates a folder private to its owner (0700), or makes an existing one of ours so. A folder
 * of another user (`/tmp`, the filesystem root) keeps its mode: it is not ours to set, and the
 * files in it are private anyway.
 */
async function ensurePrivateDirectory(path: string): Promise<void> {
  await Deno.mkdir(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  if (Deno.build.os === "windows") return;
  const info = await Deno.stat(path);
  if (info.uid !== Deno.uid() || (await Deno.realPath(path)) === "/") return;
  await Deno.chmod(path, PRIVATE_DIRECTORY_MODE);
}

/** The path of a `file:` database URL, or null for a libSQL server. */
function databaseFile(url: string): string | null {
  return url.startsWith("file:") ? url.slice("file:".length).replace(/^\/\/(?=\/)/, "") : null;
}

/**
 * Makes a file database private: its folder 0700, the database, its WAL and shm 0600 (files
 * an older version or another umask created included).
 */
export async function restrictDatabaseFiles(url: string): Promise<void> {
  const path = databaseFile(url);
  if (path === null) return;
  const slash = path.lastIndexOf("/");
  await ensurePrivateDirectory(slash > 0 ? path.slice(0, slash) : ".");
  for (const file of [path, `${path}-wal`, `${path}-shm`]) await restrictFile(file);
}
