import assert from "node:assert/strict";
import { formatMajorAmount, parseMajorAmount } from "../lib/money.ts";
import { curlCommand, shellVariable } from "../lib/panel/curl.ts";
import { parseMetadataText } from "../lib/panel/forms.ts";
import { buildReference } from "../lib/panel/reference.ts";
import { ApiError } from "../lib/errors.ts";

Deno.test("[panel forms] prices, metadata and curl as people type and read them", () => {
  assert.equal(parseMajorAmount("12.50", "PLN"), 1250);
  assert.equal(parseMajorAmount("12,5", "PLN"), 1250);
  assert.equal(parseMajorAmount(" 1 250 ", "PLN"), 125000);
  assert.equal(parseMajorAmount("1,250.00", "EUR"), 125000);
  assert.equal(parseMajorAmount("1000", "JPY"), 1000);
  assert.equal(parseMajorAmount("1.5", "JPY"), null);
  assert.equal(parseMajorAmount("12.505", "PLN"), null);
  assert.equal(parseMajorAmount("-3", "PLN"), null);
  assert.equal(parseMajorAmount("1e3", "PLN"), null);
  assert.equal(formatMajorAmount(1250, "PLN"), "12.50");
  assert.equal(formatMajorAmount(1000, "JPY"), "1000");

  assert.deepEqual(parseMetadataText("sku = COFFEE-1KG\n\norder=A=1\r\n"), {
    sku: "COFFEE-1KG",
    order: "A=1",
  });
  assert.throws(() => parseMetadataText("just text"), (error: ApiError) => {
    assert.equal(error.param, "metadata");
    assert.equal(
      error.message,
      "Metadata line 1 is not key=value: write each entry as orderId=A-1001.",
    );
    return true;
  });
  assert.throws(() => parseMetadataText("a=1\na=2"), /Metadata has the key 'a' twice\./);

  assert.equal(
    curlCommand("https://api.example", "POST", "/api/v1/qr", { name: "Don't" }),
    [
      "curl https://api.example/api/v1/qr \\",
      '  -H "Authorization: Bearer $PAYSTEAD_KEY" \\',
      '  -H "Content-Type: application/json" \\',
      `  -d '{"name":"Don'\\''t"}'`,
    ].join("\n"),
  );
  assert.equal(
    curlCommand("https://api.example", "POST", "/api/v1/payments/pay_1/cancel"),
    'curl -X POST https://api.example/api/v1/payments/pay_1/cancel \\\n  -H "Authorization: Bearer $PAYSTEAD_KEY"',
  );
  // An id an earlier command captured: the shell expands it, in the path and in the body.
  assert.equal(
    curlCommand("https://api.example", "POST", `/v1/s/${shellVariable("QR_ID")}`, {
      qrId: shellVariable("QR_ID"),
      note: 'say "$5"',
    }, { variable: "SESSION_ID", field: "sessionId" }),
    [
      'SESSION_ID=$(curl -s "https://api.example/v1/s/$QR_ID" \\',
      '  -H "Authorization: Bearer $PAYSTEAD_KEY" \\',
      '  -H "Content-Type: application/json" \\',
      '  -d "{\\"qrId\\":\\"$QR_ID\\",\\"note\\":\\"say \\\\\\"\\$5\\\\\\"\\"}" | jq -r .sessionId)',
    ].join("\n"),
  );
});

Deno.test("[panel reference] the OpenAPI document becomes operations, fields and schemas", () => {
  const reference = buildReference({
    openapi: "3.1.0",
    info: { title: "Shop API", version: "1" },
    servers: [{ url: "https://api.example" }],
    components: {
      schemas: {
        Thing: {
          type: "object",
          description: "A thing.",
          properties: {
            name: { type: "string", minLength: 1, maxLength: 5, example: "cup" },
            size: { type: ["integer", "null"], enum: [1, 2, null] },
            owner: {
              type: "object",
              properties: { email: { type: "string", format: "email" } },
              required: ["email"],
            },
            tags: { type: "array", items: { $ref: "#/components/schemas/Tag" } },
          },
          required: ["name"],
        },
        Tag: { type: "object", properties: { label: { type: "string" } } },
      },
    },
    paths: {
      "/things/{id}": {
        post: {
          operationId: "makeThing",
          summary: "Make a thing",
          tags: ["Things"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          responses: {
            "201": {
              description: "Made.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
          },
        },
      },
    },
  });
  assert.equal(reference.server, "https://api.example");
  const [group] = reference.groups;
  assert.equal(group.tag, "Things");
  const [operation] = group.operations;
  assert.equal(operation.id, "makeThing");
  assert.deepEqual(operation.parameters, [
    { name: "id", in: "path", required: true, type: "string", description: null, constraints: [] },
  ]);
  assert.equal(operation.body?.schema, "Thing");
  assert.deepEqual(
    operation.body?.fields.map((
      field,
    ) => [field.name, field.type, field.required, field.constraints]),
    [
      ["name", "string", true, ["at least 1 characters", "at most 5 characters"]],
      ["size", "integer or null", false, ["one of 1, 2"]],
      ["owner", "object", false, []],
      ["owner.email", "string", true, ["email"]],
      ["tags", "array of Tag", false, []],
    ],
  );
  assert.deepEqual(operation.exampleBody, { name: "cup" });
  // The curl reads the path's id from a shell variable named after what it names.
  assert.equal(operation.curlPath, `/things/${shellVariable("THING_ID")}`);
  assert.equal(operation.uploadType, null);
  assert.deepEqual(operation.responses, [
    { status: "201", description: "Made.", schema: "Thing", contentType: "application/json" },
  ]);
  assert.deepEqual(reference.schemas.map((schema) => schema.name), ["Thing", "Tag"]);
});

Deno.test("[panel forms] a curl with a query runs in bash as shown and asks for that URL", async () => {
  const asked: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    asked.push(`${request.url} ${request.headers.get("authorization")}`);
    return Response.json({ data: [] });
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const command = curlCommand(
      base,
      "GET",
      "/api/v1/events?type=checkout.session.completed&limit=1",
    );
    assert.equal(
      command.split("\n")[0],
      `curl '${base}/api/v1/events?type=checkout.session.completed&limit=1' \\`,
    );
    const run = await new Deno.Command("bash", {
      args: ["-c", command],
      env: { PAYSTEAD_KEY: "sk_sandbox_test" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    assert.equal(new TextDecoder().decode(run.stdout), '{"data":[]}');
    assert.deepEqual(asked, [
      `${base}/api/v1/events?type=checkout.session.completed&limit=1 Bearer sk_sandbox_test`,
    ]);
  } finally {
    await server.shutdown();
  }
});
