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
