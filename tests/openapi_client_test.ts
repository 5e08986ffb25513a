import assert from "node:assert/strict";
import { makeTestApp } from "./support/helpers.ts";

// Pinned: the document is checked against what these versions generate and report.
const OPENAPI_TYPESCRIPT = "npm:openapi-typescript@7.13.0";
const REDOCLY = "npm:@redocly/cli@2.77.0";
const SPECTRAL = "npm:@stoplight/spectral-cli@6.15.0";

/** The README's calls and a webhook handler, against the generated types only. */
const PROGRAM = `
import type { components, paths } from "./schema.d.ts";

type Schemas = components["schemas"];
type JsonBody<P extends keyof paths, M extends "post" | "put" | "patch"> = NonNullable<
  paths[P][M] extends { requestBody?: infer B } ? B : never
> extends { content: { "application/json": infer T } } ? T : never;

// The README's minimal calls: fields with defaults may be left out.
const offer: JsonBody<"/api/v1/qr", "post"> = { name: "Coffee", amount: 1250, currency: "PLN" };
const payment: JsonBody<"/payments", "post"> = { qrId: "qr_x" };
const sameCall: JsonBody<"/api/v1/payments", "post"> = payment;
const idempotency: paths["/payments"]["post"]["parameters"]["header"] = {
  "idempotency-key": "order-1001",
};
const complete: JsonBody<"/api/v1/payments/{paymentId}/complete", "post"> = { code: "777123" };
const refund: JsonBody<"/api/v1/payments/{paymentId}/refunds", "post"> = { amount: 500 };
const clock: JsonBody<"/api/v1/sandbox/clock/advance", "post"> = { days: 30 };
const settings: JsonBody<"/api/v1/checkout-settings", "put"> = {
  allowedOrigins: ["http://localhost:3000"],
};
const session: JsonBody<"/api/v1/checkout-sessions/{id}", "post"> = {
  embedLink: "http://localhost:3000/shop",
};
const endpoint: JsonBody<"/api/v1/webhook-endpoints", "post"> = {
  url: "http://localhost:3000/webhooks",
  events: ["payment.*", "refund.*"],
};
const minimalEndpoint: JsonBody<"/api/v1/webhook-endpoints", "post"> = { url: "https://x.example" };
const recover: JsonBody<"/api/v1/webhook-endpoints/{id}/recover", "post"> = {
  since: "2026-11-21T10:00:00.000Z",
};
const monthly: JsonBody<"/api/v1/qr", "post"> = {
  ...offer,
  recurring: { interval: "MONTH" },
};
// @ts-expect-error an endpoint subscribes to known event types only
const typo: JsonBody<"/api/v1/webhook-endpoints", "post"> = { url: "https://x.example", events: ["payment.done"] };

type Created = paths["/api/v1/payments"]["post"]["responses"][201]["content"]["application/json"];
declare const created: Created;
const paymentUrl: string = created.paymentUrl;
const version: number = created.version;

/** A receiver narrowing events by type: data is typed without a cast. */
function handle(event: Schemas["Event"]): string {
  switch (event.type) {
    case "payment.succeeded": {
      const paid: Schemas["Payment"] = event.data;
      return \`\${paid.paymentId} v\${paid.version}\`;
    }
    case "refund.failed": {
      const failed: Schemas["Refund"] = event.data;
      return failed.refundId;
    }
    case "checkout.session.completed":
      return event.data.sessionId;
    case "subscription.renewed":
      return event.data.subscriptionId;
    case "webhook.test":
      return event.data.url;
    default:
      return event.type;
  }
}

type Listed = paths["/api/v1/events"]["get"]["responses"][200]["content"]["application/json"];
declare const listed: Listed;
listed.data.map(handle);

type Hook = NonNullable<paths["/api/v1/events"]["get"]["responses"][429]["headers"]>;
declare const limited: Hook;
const retryAfter: number | undefined = limited["Retry-After"];

export {
  clock,
  complete,
  endpoint,
  idempotency,
  minimalEndpoint,
  monthly,
  paymentUrl,
  recover,
  refund,
  retryAfter,
  sameCall,
  session,
  settings,
  typo,
  version,
};
`;

async function run(args: string[], cwd: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

Deno.test("[openapi] a client generated with openapi-typescript compiles the README's calls and narrows events", async (t) => {
  const app = await makeTestApp();
  const dir = await Deno.makeTempDir({ prefix: "paystead-openapi-" });
  try {
    const response = await app.app.request("/api/v1/openapi.json");
    assert.equal(response.status, 200);
    await Deno.writeTextFile(`${dir}/openapi.json`, await response.text());

    await t.step("openapi-typescript, default options, then deno check", async () => {
      const generated = await run(
        ["run", "-A", OPENAPI_TYPESCRIPT, "openapi.json", "-o", "schema.d.ts"],
        dir,
      );
      assert.equal(generated.code, 0, generated.out);
      await Deno.writeTextFile(`${dir}/program.ts`, PROGRAM);
      const checked = await run(["check", "program.ts"], dir);
      assert.equal(checked.code, 0, checked.out);
    });

    await t.step("redocly's recommended rules report no error", async () => {
      const linted = await run(["run", "-A", REDOCLY, "lint", "openapi.json"], dir);
      assert.equal(linted.code, 0, linted.out);
      assert.match(linted.out, /Your API description is valid/);
    });

    await t.step("spectral's oas rules report no error", async () => {
      await Deno.writeTextFile(`${dir}/.spectral.yaml`, 'extends: ["spectral:oas"]\n');
      const linted = await run(
        ["run", "-A", SPECTRAL, "lint", "openapi.json", "--ruleset", ".spectral.yaml"],
        dir,
      );
      assert.equal(linted.code, 0, linted.out);
      assert.match(linted.out, /0 errors/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await app.close();
  }
});
