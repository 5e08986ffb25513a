import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError } from "../lib/errors.ts";
import { type Language, translator } from "../lib/i18n/mod.ts";
import { panelErrorText } from "../lib/panel/error_text.ts";
import { customerErrorText } from "../routes/error_page.tsx";
import { wantsPage } from "../routes/error_pages.ts";

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

Deno.test("[error pages] customers read their language's words, merchants the API's message", async (t) => {
  const conflict = new ApiError("payment_already_final", "The payment is SUCCEEDED.");
  const tooLarge = new ApiError(
    "body_too_large",
    "This form is larger than any panel form can be.",
  );
  const broken = new ApiError("internal_error", "Something went wrong on our side.");
  const invalid = new ApiError("parameter_invalid", "'code': must be 6 digits.");
  const cases: [ApiError, "merchant" | Language, string, string][] = [
    [
      conflict,
      "en",
      "This payment has already changed",
      "Go back and reload the payment page to see where it stands.",
    ],
    [
      conflict,
      "pl",
      "Stan tej płatności już się zmienił",
      "Wróć i odśwież stronę płatności, aby sprawdzić jej aktualny stan.",
    ],
    [conflict, "merchant", "That didn't work", "The payment is SUCCEEDED."],
    [tooLarge, "merchant", "That was too much at once", tooLarge.message],
    [
      tooLarge,
      "en",
      "Something went wrong",
      "It wasn't anything you did. Please try again in a moment.",
    ],
    [tooLarge, "pl", "Coś poszło nie tak", "To nie Twoja wina. Spróbuj ponownie za chwilę."],
    [
      broken,
      "merchant",
      "Something went wrong",
      "It wasn't anything you did. Try again in a moment; if it keeps happening, quote the reference below.",
    ],
    // A customer never reads the API's message: it is English and may name internals.
    [
      invalid,
      "en",
      "Check what you entered",
      "Something in the form wasn't right. Go back and try again.",
    ],
    [
      invalid,
      "pl",
      "Sprawdź wprowadzone dane",
      "Coś w formularzu się nie zgadza. Wróć i spróbuj ponownie.",
    ],
  ];
  for (const [error, reader, title, text] of cases) {
    await t.step(`${error.status} to ${reader}: ${title}`, () => {
      const page = reader === "merchant"
        ? panelErrorText(translator("en"), error)
        : customerErrorText(error, reader);
      assert.deepEqual(page, { title, text });
    });
  }
});
