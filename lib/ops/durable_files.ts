/** Flushes a file's content to disk, so a rename that follows never exposes a partial file. */
export async function syncFile(path: string): Promise<void> {
  const file = await Deno.open(path, { read: true });
  try {
    await file.sync();
  } finally {
    file.close();
  }
}

/** Flushes a folder's entries (a rename into it) to disk; Linux allows fsync on a folder. */
export async function syncFolder(path: string): Promise<void> {
  if (Deno.build.os === "windows") return;
  const folder = await Deno.open(path, { read: true });
  try {
    await folder.sync();
  } finally {
    folder.close();
  }
}

/** The database at `path` and the files SQLite may keep beside it. */
function databaseFiles(path: string): string[] {
  return [path, path + "-wal", path + "-shm", path + "-journal"];
}

/** Removes the database at `path` and SQLite's files beside it; any already gone is passed over. */
export async function removeDatabaseFiles(path: string): Promise<void> {
  for (const file of databaseFiles(path)) await Deno.remove(file).catch(() => {});
}

/** `removeDatabaseFiles`, at once: for a signal handler that exits right after. */
export function removeDatabaseFilesSync(path: string): void {
  for (const file of databaseFiles(path)) {
    try {
      Deno.removeSync(file);
    } catch {
      // Not there: SQLite made no such file, or it was removed already.
    }
  }
}
