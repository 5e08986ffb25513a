import assert from "node:assert/strict";
import { createTestOffer, expectError, makeTestApp } from "./support/helpers.ts";

Deno.test("[api] every response carries a Request-Id", async () => {
  const app = await makeTestApp();
  try {
    for (
      const response of [
        await app.request("GET", "/api/v1/qr"),
        await app.app.request("/api/v1/qr"),
        await app.app.request("/healthz"),
        await app.app.request("/nowhere"),
        await app.app.request("/api/v1/openapi.json"),
      ]
    ) {
      assert.match(response.headers.get("request-id") ?? "", /^req_[0-9A-Za-z]{24}$/);
      await response.body?.cancel();
    }
  } finally {
    await app.close();
  }
});

/** A request body as a stream with no declared length, as a client sending it chunked does. */
function streamed(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (text !== "") controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

Deno.test("[api] a body without a declared length is read once and reaches the route", async () => {
  const app = await makeTestApp();
  try {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      app.app.request(path, {
        method: "POST",
        headers: { authorization: `Bearer ${app.apiKey}`, ...headers },
        body: streamed(body),
      });
    const created = await post(
      "/api/v1/webhook-endpoints",
      JSON.stringify({ url: "http://localhost:3000/webhooks", events: ["payment.*"] }),
      { "content-type": "application/json" },
    );
    assert.equal(created.status, 201);
    const endpoint = await created.json();
    // An empty body, where the route's validators ask for the body the parser already read.
    const tested = await post(`/api/v1/webhook-endpoints/${endpoint.id}/test`, "");
    assert.equal(tested.status, 202);
    const delivery = await tested.json();
    assert.deepEqual([delivery.endpointId, delivery.trigger], [endpoint.id, "TEST"]);
  } finally {
    await app.close();
  }
});

Deno.test("[api] bodies that cannot be read are 4xx with a reason", async (t) => {
  const app = await makeTestApp();
  try {
    const send = (body: BodyInit, contentType?: string) =>
      app.app.request("/api/v1/qr", {
        method: "POST",
        headers: {
          authorization: `Bearer ${app.apiKey}`,
          ...(contentType !== undefined && { "content-type": contentType }),
        },
        body,
      });
    await t.step("over 1 MiB is 413", async () => {
      await expectError(
        await send(JSON.stringify({ name: "x".repeat(1024 * 1024) }), "application/json"),
        413,
        "invalid_request",
        "body_too_large",
        "The request body is larger than 1 MiB.",
      );
    });
    await t.step("not JSON is 415", async () => {
      await expectError(
        await send("name=x", "application/x-www-form-urlencoded"),
        415,
        "invalid_request",
        "unsupported_media_type",
        "Send the request body as JSON with 'Content-Type: application/json' (got 'application/x-www-form-urlencoded').",
      );
    });
    await t.step("no content type is 415", async () => {
      await expectError(
        await send('{"name":"x"}'),
        415,
        "invalid_request",
        "unsupported_media_type",
      );
    });
    await t.step("a charset other than UTF-8 is 415", async () => {
      await expectError(
        await send('{"name":"x"}', "application/json; charset=latin1"),
        415,
        "invalid_request",
        "unsupported_media_type",
        "JSON request bodies must be UTF-8.",
      );
    });
    await t.step("invalid UTF-8 is 400", async () => {
      await expectError(
        await send(
          new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
          "application/json",
        ),
        400,
        "invalid_request",
        "invalid_json",
        "The request body could not be read: it is not valid UTF-8.",
      );
    });
    await t.step("malformed JSON is 400", async () => {
      await expectError(
        await send('{"name": ', "application/json"),
        400,
        "invalid_request",
        "invalid_json",
        "The request body could not be read: it is not valid JSON (Unexpected end of JSON input).",
      );
    });
    await t.step("deep nesting is 400", async () => {
      await expectError(
        await send("[".repeat(100) + "]".repeat(100), "application/json"),
        400,
        "invalid_request",
        "invalid_json",
        "The request body is nested deeper than 32 levels.",
      );
    });
    await t.step("a JSON value that is not an object is 400", async () => {
      await expectError(
        await send("[1,2]", "application/json"),
        400,
        "invalid_request",
        "parameter_invalid",
        "The request body: Invalid input: expected object, received array.",
      );
    });
    await t.step("an empty body where one is required is 415", async () => {
      await expectError(await send(""), 415, "invalid_request", "unsupported_media_type");
    });
    assert.deepEqual(await (await app.request("GET", "/api/v1/qr")).json(), {
      data: [],
      hasMore: false,
    });
  } finally {
    await app.close();
  }
});

Deno.test("[api] an unknown route is 404 and an unexpected failure is a 500 that leaks nothing", async () => {
  const app = await makeTestApp();
  try {
    await expectError(
      await app.app.request("/api/v1/nothing-here", {
        headers: { authorization: `Bearer ${app.apiKey}` },
      }),
      404,
      "not_found",
      "route_not_found",
      "There is no GET /api/v1/nothing-here.",
    );
    await app.store.close();
    const response = await app.request("GET", "/api/v1/qr");
    const body = await expectError(response, 500, "api", "internal_error");
    assert.equal(
      body.error.message,
      `Something went wrong on our side; nothing you did caused it. Quote ${body.error.requestId} if you contact support.`,
    );
  } finally {
    await app.accounts.close();
    await Deno.remove(app.dataDir, { recursive: true });
  }
});

Deno.test("[api] API responses are not cached", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const json = await app.request("GET", `/api/v1/qr/${offer.qrId}`);
    assert.equal(json.headers.get("cache-control"), "no-store");
    const svg = await app.request("GET", `/api/v1/qr/${offer.qrId}/code.svg`);
    assert.equal(svg.headers.get("cache-control"), "private, max-age=300");
  } finally {
    await app.close();
  }
});

Deno.test("[api] the OpenAPI 3.1 document describes every operation from the zod schemas", async () => {
  const app = await makeTestApp();
  try {
    const response = await app.app.request("/api/v1/openapi.json");
    assert.equal(response.status, 200);
    const doc = await response.json();
    assert.equal(doc.openapi, "3.1.0");
    assert.deepEqual(doc.servers, [{ url: "http://sandbox.test", description: "sandbox" }]);
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { operationId: string }>>,
    )
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) =>
          `${method.toUpperCase()} ${path} ${op.operationId}`
        )
      );
    for (
      const expected of [
        "POST /api/v1/qr createOffer",
        "GET /api/v1/qr listOffers",
        "GET /api/v1/qr/{qrId} getOffer",
        "PATCH /api/v1/qr/{qrId} updateOffer",
        "GET /api/v1/qr/{qrId}/code.svg getOfferQrCode",
        "POST /api/v1/payments createPayment",
        "POST /payments createPaymentAlias",
        "GET /api/v1/payments listPayments",
        "GET /api/v1/payments/{paymentId} getPayment",
        "POST /api/v1/payments/{paymentId}/cancel cancelPayment",
        "POST /api/v1/payments/{paymentId}/complete completePayment",
        "GET /api/v1/events listEvents",
        "GET /api/v1/events/{id} getEvent",
      ]
    ) {
      assert.ok(operations.includes(expected), `missing ${expected}`);
    }
    const schemas = doc.components.schemas;
    assert.deepEqual(schemas.CreatePaymentRequest.required, ["qrId"]);
    assert.equal(schemas.CreatePaymentRequest.additionalProperties, false);
    assert.deepEqual(schemas.Payment.properties.status.enum, [
      "PENDING",
      "PROCESSING",
      "SUCCEEDED",
      "FAILED",
      "CANCELED",
      "EXPIRED",
    ]);
    assert.equal(schemas.Error.properties.error.properties.requestId.type, "string");
    assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
    assert.equal(
      doc.paths["/api/v1/payments"].post.responses["409"].content["application/json"].schema.$ref,
      "#/components/schemas/Error",
    );
  } finally {
    await app.close();
  }
});

Deno.test("[api] health, readiness and metrics", async () => {
  const app = await makeTestApp({ env: { METRICS_TOKEN: "m".repeat(32) } });
  try {
    const health = await app.app.request("/healthz");
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok", environment: "sandbox" });
    const ready = await app.app.request("/readyz");
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: "ready" });

    await createTestOffer(app);
    await app.request("GET", "/api/v1/qr/qr_nope");
    const metrics = await (await app.app.request("/metrics", {
      headers: { authorization: `Bearer ${"m".repeat(32)}` },
    })).text();
    assert.match(
      metrics,
      /paystead_http_requests_total\{method="POST",route="\/api\/v1\/qr",status="201",ok="true"\} 1/,
    );
    assert.match(
      metrics,
      /paystead_http_requests_total\{method="GET",route="\/api\/v1\/qr\/:qrId",status="404",ok="false"\} 1/,
    );
    assert.match(
      metrics,
      /paystead_http_request_duration_seconds_bucket\{le="0\.0005",method="POST",route="\/api\/v1\/qr"/,
    );

    await app.store.close();
    const down = await app.app.request("/readyz");
    assert.equal(down.status, 503);
    assert.deepEqual(await down.json(), {
      status: "unavailable",
      reason: "a database does not answer",
    });
  } finally {
    await app.accounts.close();
    await Deno.remove(app.dataDir, { recursive: true });
  }
});
