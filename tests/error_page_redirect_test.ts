import assert from "node:assert/strict";
import { startPaystead } from "./support/processes.ts";

/** Sends `GET <target>` as written (fetch would normalise `//host` and `\`) and reads the answer. */
async function rawGet(port: number, target: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\nConnection: close\r\n\r\n`,
      ),
    );
    return await new Response(conn.readable).text();
  } catch (error) {
    conn.close();
    throw error;
  }
}

Deno.test("[error pages] a path starting with // or /\\ links its language switch to this site, not another", async (t) => {
  const dataDir = await Deno.makeTempDir();
  const server = await startPaystead(dataDir);
  try {
    for (const target of ["//evil.test/pay/x", "/\\evil.test/pay/x", "///\\/evil.test/pay/x"]) {
      await t.step(target, async () => {
        const answer = await rawGet(server.port, target);
        assert.match(answer, /^HTTP\/1\.1 404 /);
        const hrefs = [...answer.matchAll(/href="([^"]*\?lang=[a-z]+)"/g)].map((m) => m[1]);
        assert.ok(hrefs.length > 0, "the 404 page has a language link");
        for (const href of hrefs) {
          assert.ok(href.startsWith("/") && !/^[/\\]{2}/.test(href), href);
          assert.equal(href.replace(/\?lang=.*/, ""), "/evil.test/pay/x".replace(/\\/g, "/"));
        }
      });
    }
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
