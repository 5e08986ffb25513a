import assert from "node:assert/strict";
import { allowOrigins, createTestSession, pathOf } from "./support/checkout_helpers.ts";
import { createTestOffer, makeTestApp } from "./support/helpers.ts";

Deno.test("[static] files are served with their type, an ETag and short caching", async (s) => {
  const t = await makeTestApp();
  try {
    const cases: [string, string][] = [
      ["app.css", "text/css; charset=utf-8"],
      ["embed.js", "text/javascript; charset=utf-8"],
      ["islands.js", "text/javascript; charset=utf-8"],
      ["favicon.svg", "image/svg+xml"],
    ];
    for (const [name, type] of cases) {
      await s.step(name, async () => {
        const response = await t.app.request(`/static/${name}`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get("content-type"), type);
        assert.equal(response.headers.get("cache-control"), "public, max-age=300");
        assert.equal(response.headers.get("x-content-type-options"), "nosniff");
        assert.equal(response.headers.get("access-control-allow-origin"), "*");
        const etag = response.headers.get("etag")!;
        assert.match(etag, /^"[0-9a-f]{16}"$/);
        const body = new Uint8Array(await response.arrayBuffer());
        const file = await Deno.readFile(new URL(`../static/${name}`, import.meta.url));
        assert.deepEqual(body, file);

        const versioned = await t.app.request(`/static/${name}?v=${etag.slice(1, -1)}`);
        assert.equal(versioned.headers.get("cache-control"), "public, max-age=31536000, immutable");
        await versioned.body?.cancel();
        const stale = await t.app.request(`/static/${name}?v=0000000000000000`);
        assert.equal(stale.headers.get("cache-control"), "public, max-age=300");
        await stale.body?.cancel();

        const revalidated = await t.app.request(`/static/${name}`, {
          headers: { "if-none-match": etag },
        });
        assert.equal(revalidated.status, 304);
        assert.equal(await revalidated.text(), "");
      });
    }
    await s.step("nothing outside static/, nothing unknown", async () => {
      for (
        const path of [
          "/static/nope.css",
          "/static/..%2Fdeno.json",
          "/static/deno.json",
          "/static/",
        ]
      ) {
        const response = await t.app.request(path, { headers: { accept: "application/json" } });
        assert.equal(response.status, 404, path);
        await response.body?.cancel();
      }
    });
  } finally {
    await t.close();
  }
});

Deno.test("[static] every asset a page links to is served by the process itself", async () => {
  const t = await makeTestApp();
  try {
    await allowOrigins(t);
    const offer = await createTestOffer(t);
    const session = await createTestSession(t, offer.qrId);
    const html = await (await t.app.request(pathOf(session.embedUrl))).text();
    // The page's own link to itself in the other language is no asset.
    const links = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1])
      .filter((link) => !link.startsWith(`${pathOf(session.embedUrl)}?lang=`));
    assert.equal(links.length, 3);
    for (const link of links) {
      assert.match(link, /^\/static\/[a-z.]+\?v=[0-9a-f]{16}$/, "no CDN, no other host");
      const response = await t.app.request(link);
      assert.equal(response.status, 200, link);
      assert.equal(response.headers.get("cache-control"), "public, max-age=31536000, immutable");
      await response.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("[static] the committed island bundle is what `deno task build` makes now", async () => {
  // NOTE: static/islands.js is committed so a fresh clone serves it without a build step; this
  // test fails when an island changed and the bundle was not rebuilt and committed with it.
  const out = await Deno.makeTempFile({ suffix: ".js" });
  try {
    const root = new URL("..", import.meta.url);
    const task = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).tasks.build;
    const args = task.split(" ").slice(1);
    args[args.indexOf("static/islands.js")] = out;
    const result = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
    const built = await Deno.readTextFile(out);
    const committed = await Deno.readTextFile(new URL("static/islands.js", root));
    assert.ok(
      built === committed,
      "static/islands.js is stale: run `deno task build` and commit the result",
    );
  } finally {
    await Deno.remove(out);
  }
});
