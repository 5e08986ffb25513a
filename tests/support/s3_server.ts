/**
 * A real S3-protocol server on 127.0.0.1 for off-site backup tests: npm `s3rver`, run as its own
 * process so a test can stop it (the store is down) and start it again on the same port and
 * folder (the store is back, with what it held).
 */
import { openOffsiteStore } from "../../lib/ops/offsite_store.ts";
import { freePort, waitForUrl } from "./processes.ts";

/** The bucket every test server has. */
export const TEST_BUCKET = "paystead-backups";

/** s3rver's own key pair: it refuses any other. */
export const S3RVER_KEYS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

/** A running s3rver and what to set so Paystead uses it. */
export interface S3Server {
  port: number;
  endpoint: string;
  /** Where it keeps the objects: `<folder>/<bucket>/<key>._S3rver_object`. */
  folder: string;
  /** `BACKUP_S3_ENDPOINT`, `BACKUP_S3_REGION` and the keys. */
  env: Record<string, string>;
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  restart(): Promise<void>;
}

/** Starts s3rver on a free port (or `port`) keeping its objects in `folder`. */
export async function startS3Server(
  folder?: string,
  port = freePort(),
): Promise<S3Server> {
  const dir = folder ?? await Deno.makeTempDir({ prefix: "paystead-s3-" });
  let child: Deno.ChildProcess | null = null;
  const start = async () => {
    child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-net=127.0.0.1",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-sys",
        // The repository's imports name s3rver's pinned version, whatever the caller's folder.
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        import.meta.filename!,
        String(port),
        dir,
      ],
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    await waitForUrl(`http://127.0.0.1:${port}/${TEST_BUCKET}`);
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    port,
    endpoint,
    folder: dir,
    env: { BACKUP_S3_ENDPOINT: endpoint, BACKUP_S3_REGION: "us-east-1", ...S3RVER_KEYS },
    async stop() {
      if (!child) return;
      child.kill("SIGTERM");
      await child.status;
      child = null;
    },
    restart: start,
  };
}

/** The keys of `bucket`'s objects under `prefix`, read from s3rver's folder. */
export async function storedKeys(server: S3Server, prefix = ""): Promise<string[]> {
  const root = `${server.folder}/${TEST_BUCKET}/`;
  const keys: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith("._S3rver_object")) {
        keys.push(path.slice(root.length, -"._S3rver_object".length));
      }
    }
  };
  await walk(root.slice(0, -1)).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return keys.filter((key) => key.startsWith(prefix)).sort();
}

/** The bytes of one stored object. */
export function storedObject(server: S3Server, key: string): Promise<Uint8Array> {
  return Deno.readFile(`${server.folder}/${TEST_BUCKET}/${key}._S3rver_object`);
}

if (import.meta.main) {
  const { default: S3rver } = await import("s3rver");
  const [port, directory] = Deno.args;
  const server = new S3rver({
    port: Number(port),
    address: "127.0.0.1",
    directory,
    silent: true,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  await server.run();
  Deno.addSignalListener("SIGTERM", async () => {
    await server.close();
    Deno.exit(0);
  });
}

/** The off-site store Paystead opens on the test bucket at `endpoint` (s3rver, or a proxy to it). */
export function testStore(endpoint: string): ReturnType<typeof openOffsiteStore> {
  return openOffsiteStore(
    {
      endpoint,
      region: "us-east-1",
      accessKeyId: S3RVER_KEYS.AWS_ACCESS_KEY_ID,
      secretAccessKey: S3RVER_KEYS.AWS_SECRET_ACCESS_KEY,
    },
    TEST_BUCKET,
  );
}
