import assert from "node:assert/strict";
import { expectError, makeTestApp, type TestApp } from "./helpers.ts";

/** 257 KiB: over the sandbox inbox's 256 KiB and the panel's 64 KiB, under the API's 1 MiB. */
const OVERSIZED = "x".repeat(257 * 1024);

Deno.test("[body limit] the sandbox inbox answers an oversized body with the contract's JSON", async () => {
  const t = await makeTestApp();
  try {
    const response = await t.app.request("/sandbox/webhook-inbox/inb_missingmissingmissing00", {
      method: "POST",
      body: OVERSIZED,
    });
    await expectError(
      response,
      413,
      "invalid_request",
      "body_too_large",
      "An inbox keeps bodies up to 256 KiB.",
    );
  } finally {
    await t.close();
  }
});

/** Signs in with a password far over the panel's 64 KiB form limit. */
function postOversizedSignIn(t: TestApp, accept: string): Promise<Response> {
  return Promise.resolve(t.app.request("/panel/sign-in", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept,
      "sec-fetch-site": "same-origin",
    },
    body: `email=a%40b.test&password=${OVERSIZED}`,
  }));
}

Deno.test("[body limit] a panel form over 64 KiB is 413 before anything reads it", async () => {
  const t = await makeTestApp();
  try {
    await expectError(
      await postOversizedSignIn(t, "application/json"),
      413,
      "invalid_request",
      "body_too_large",
      "This form is larger than any panel form can be.",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[body limit] a browser's oversized panel form gets the panel's error page", async () => {
  const t = await makeTestApp();
  try {
    const response = await postOversizedSignIn(t, "text/html");
    assert.equal(response.status, 413);
    assert.equal(response.headers.get("content-type"), "text/html; charset=UTF-8");
    const html = await response.text();
    assert.match(html, /<title>[^<]*That was too much at once/);
    assert.match(html, /This form is larger than any panel form can be\./);
  } finally {
    await t.close();
  }
});
