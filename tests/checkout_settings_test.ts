import assert from "node:assert/strict";
import { makeTestApp } from "./support/helpers.ts";

Deno.test("[checkout] settings start with no allowed origins", async () => {
  const t = await makeTestApp();
  try {
    const response = await t.request("GET", "/api/v1/checkout-settings");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.deepEqual(await response.json(), { allowedOrigins: [] });
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] PUT settings normalises origins and replaces the list", async () => {
  const t = await makeTestApp();
  try {
    const response = await t.request("PUT", "/api/v1/checkout-settings", {
      allowedOrigins: [
        "https://Shop.Example:443",
        "https://shop.example",
        "https://shop.example:8443",
        "http://localhost:5173",
        "http://127.0.0.1:8080",
      ],
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    const expected = {
      allowedOrigins: [
        "https://shop.example",
        "https://shop.example:8443",
        "http://localhost:5173",
        "http://127.0.0.1:8080",
      ],
    };
    assert.deepEqual(await response.json(), expected);
    assert.deepEqual(await (await t.request("GET", "/api/v1/checkout-settings")).json(), expected);

    const replaced = await t.request("PUT", "/api/v1/checkout-settings", {
      allowedOrigins: ["https://other.example"],
    });
    assert.deepEqual(await replaced.json(), { allowedOrigins: ["https://other.example"] });
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] PUT settings rejects anything that is not an exact origin", async (t) => {
  const app = await makeTestApp();
  try {
    const cases: [unknown, string, string][] = [
      [["https://*.shop.example"], "allowedOrigins.0", "wildcards are not allowed"],
      [["*"], "allowedOrigins.0", "wildcards are not allowed"],
      [["https://shop.example", "https://shop.example/pay"], "allowedOrigins.1", "no path"],
      [["https://shop.example/"], "allowedOrigins.0", "no path"],
      [["https://shop.example?x=1"], "allowedOrigins.0", "no path"],
      [["https:"], "allowedOrigins.0", "must be an origin"],
      [["https://user@shop.example"], "allowedOrigins.0", "must be an origin"],
      [["shop.example"], "allowedOrigins.0", "must be an origin"],
      [["https://shop.example;script-src"], "allowedOrigins.0", "must be an origin"],
      [["https://a,b.example"], "allowedOrigins.0", "must be an origin"],
      [["ftp://shop.example"], "allowedOrigins.0", "must use https://"],
      [["http://shop.example"], "allowedOrigins.0", "must use https://"],
    ];
    for (const [origins, param, message] of cases) {
      await t.step(JSON.stringify(origins), async () => {
        const response = await app.request("PUT", "/api/v1/checkout-settings", {
          allowedOrigins: origins,
        });
        assert.equal(response.status, 400);
        const body = await response.json();
        assert.equal(body.error.type, "invalid_request");
        assert.equal(body.error.code, "parameter_invalid");
        assert.equal(body.error.param, param);
        assert.match(body.error.message, new RegExp(message.replace(/[/?*]/g, "\\$&")));
      });
    }
    await t.step("more than 20 origins", async () => {
      const origins = Array.from({ length: 21 }, (_, i) => `https://s${i}.example`);
      const response = await app.request("PUT", "/api/v1/checkout-settings", {
        allowedOrigins: origins,
      });
      assert.equal(response.status, 400);
      assert.equal((await response.json()).error.param, "allowedOrigins");
    });
    await t.step("unknown field", async () => {
      const response = await app.request("PUT", "/api/v1/checkout-settings", {
        allowedOrigins: [],
        origins: [],
      });
      assert.equal(response.status, 400);
      assert.equal((await response.json()).error.code, "parameter_unknown");
    });
    await t.step("nothing was saved", async () => {
      const response = await app.request("GET", "/api/v1/checkout-settings");
      assert.deepEqual(await response.json(), { allowedOrigins: [] });
    });
  } finally {
    await app.close();
  }
});

Deno.test("[checkout] production allows https origins only, not even localhost", async () => {
  const t = await makeTestApp({ environment: "production" });
  try {
    const response = await t.request("PUT", "/api/v1/checkout-settings", {
      allowedOrigins: ["http://localhost:3000"],
    });
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.equal(body.error.code, "parameter_invalid");
    assert.equal(body.error.param, "allowedOrigins.0");
    const ok = await t.request("PUT", "/api/v1/checkout-settings", {
      allowedOrigins: ["https://shop.example"],
    });
    assert.equal(ok.status, 200);
  } finally {
    await t.close();
  }
});
