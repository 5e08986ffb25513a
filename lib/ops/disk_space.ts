/** Free and total bytes of the file system holding a path. */
interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

/**
 * Asks the C library's `statvfs` (Deno has no API for it; the binary already has FFI rights for
 * SQLite). The struct layout read here is glibc's on 64-bit Linux; elsewhere this returns null.
 */
export function diskSpace(path: string): DiskSpace | null {
  if (Deno.build.os !== "linux" || !["x86_64", "aarch64"].includes(Deno.build.arch)) return null;
  let lib;
  try {
    lib = Deno.dlopen("libc.so.6", {
      statvfs: { parameters: ["buffer", "buffer"], result: "i32" },
    });
  } catch {
    return null;
  }
  try {
    // f_bsize, f_frsize, f_blocks, f_bfree, f_bavail, ...: unsigned longs, 112 bytes in all.
    const fields = new BigUint64Array(14);
    const cPath = new TextEncoder().encode(`${path}\0`);
    if (lib.symbols.statvfs(cPath, fields) !== 0) return null;
    const fragment = Number(fields[1]);
    return { freeBytes: Number(fields[4]) * fragment, totalBytes: Number(fields[2]) * fragment };
  } finally {
    lib.close();
  }
}
