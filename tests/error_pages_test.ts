import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError } from "../lib/errors.ts";
import { errorPageText, type ErrorReader, wantsPage } from "../routes/error_pages.ts";

Deno.test("[error pages] one rule decides page or JSON for public pages, the panel and the API", async (t) => {
  const app = new Hono();
  app.all("*", (c) => c.text(wantsPage(c) ? "page" : "json"));
  const cases: [string, string | null, string][] = [
    ["/pay/pay_x", null, "page"],
    ["/pay/pay_x", "text/html,application/xhtml+xml,*/*;q=0.8", "page"],
    ["/pay/pay_x", "*/*", "page"],
    ["/panel/offers", "application/json", "json"],
    ["/panel/offers", "application/json, text/html", "page"],
    ["/api/v1/payments", "text/html", "json"],
    ["/payments", null, "json"],
    ["/metrics", "text/html", "json"],
    ["/sandbox/webhook-inbox/inb_x", "text/html", "json"],
    ["/providers/payu/notify", null, "json"],
  ];
  for (const [path, accept, expected] of cases) {
    await t.step(`${path} with Accept ${accept ?? "(none)"}: ${expected}`, async () => {
      const headers: Record<string, string> = accept === null ? {} : { accept };
      assert.equal(await (await app.request(path, { headers })).text(), expected);
    });
  }
});

Deno.test("[error pages] customers and merchants read their own titles from one table", async (t) => {
  const conflict = new ApiError("payment_already_final", "The payment is SUCCEEDED.");
  const tooLarge = new ApiError(
    "body_too_large",
    "This form is larger than any panel form can be.",
  );
  const broken = new ApiError("internal_error", "Something went wrong on our side.");
  const invalid = new ApiError("parameter_invalid", "'code': must be 6 digits.");
  const cases: [ApiError, ErrorReader, string, string][] = [
    [
      conflict,
      "customer",
      "This payment has already changed",
      "Go back and reload the payment page to see where it stands.",
    ],
    [conflict, "merchant", "That didn't work", "The payment is SUCCEEDED."],
    [tooLarge, "merchant", "That was too much at once", tooLarge.message],
    [
      tooLarge,
      "customer",
      "Something went wrong",
      "It wasn't anything you did. Please try again in a moment.",
    ],
    [
      broken,
      "merchant",
      "Something went wrong",
      "It wasn't anything you did. Try again in a moment; if it keeps happening, quote the reference below.",
    ],
    [invalid, "customer", "Check what you entered", "'code': must be 6 digits."],
  ];
  for (const [error, reader, title, text] of cases) {
    await t.step(`${error.status} to a ${reader}: ${title}`, () => {
      assert.deepEqual(errorPageText(error, reader), { title, text });
    });
  }
});
