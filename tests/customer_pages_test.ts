import assert from "node:assert/strict";
import { BusinessDetailsInput, putBusinessDetails } from "../lib/business_details.ts";
import { MAX_WRONG_CODES } from "../lib/checkout/guard.ts";
import { allowOrigins, createTestSession, pathOf } from "./support/checkout_helpers.ts";
import { englishIn } from "./support/catalogue_text.ts";
import {
  createTestOffer,
  createTestPayment,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

/** The island's code submission, from the page itself. */
const ISLAND = {
  "content-type": "application/json",
  accept: "application/json",
  "sec-fetch-site": "same-origin",
};
/** A browser's plain form (no JavaScript), from the page itself. */
const FORM = {
  "content-type": "application/x-www-form-urlencoded",
  accept: "text/html",
  "sec-fetch-site": "same-origin",
};

const DETAILS = {
  legalName: "Kawiarnia Ziarno sp. z o.o.",
  address: {
    line1: "ul. Marszałkowska 10/2",
    postalCode: "00-590",
    city: "Warszawa",
    country: "PL",
  },
  taxId: "526-025-02-74",
  contactEmail: "Sklep@Ziarno.pl",
  contactPhone: "+48 22 123 45 67",
  defaultLanguage: "pl" as "pl" | "en",
  invoiceRequests: true,
};

function saveDetails(t: TestApp, details: Partial<typeof DETAILS> = {}) {
  const input = BusinessDetailsInput.parse({ ...DETAILS, ...details });
  return putBusinessDetails(t.accounts, t.orgId, input, t.clock.now());
}

async function setUp(details: Partial<typeof DETAILS> | null = DETAILS) {
  const t = await makeTestApp();
  await allowOrigins(t);
  if (details) {
    await saveDetails(t, details);
  }
  const offer = await createTestOffer(t, { name: "Kawa ziarnista", amount: 1250, currency: "PLN" });
  return { t, offer };
}

async function page(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const response = await t.app.request(path, { headers: { accept: "text/html", ...headers } });
  return { status: response.status, html: await response.text() };
}

function post(t: TestApp, path: string, body: unknown, headers = ISLAND) {
  return t.app.request(path, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function paymentRow(t: TestApp, paymentId: string) {
  return await t.store.db.selectFrom("payments")
    .select(["status", "customer_email", "invoice_company_name", "invoice_tax_id", "locale"])
    .where("public_id", "=", paymentId).executeTakeFirstOrThrow();
}

/** Asserts a page is Polish: `<html lang="pl">` and not one piece of the English catalogue. */
function assertPolish(html: string, where: string) {
  assert.match(html, /^<!doctype html><html lang="pl">/, where);
  assert.deepEqual(englishIn(html), [], where);
}

Deno.test("[customers] the page's language: ?lang, locale, Accept-Language, the organisation's", async (s) => {
  const { t, offer } = await setUp({ defaultLanguage: "en" });
  try {
    const auto = await createTestPayment(t, offer.qrId);
    const polish = await createTestPayment(t, offer.qrId, { locale: "pl" });
    const path = pathOf(auto.paymentUrl as string);
    const cases: [string, string, Record<string, string>, string][] = [
      ["nothing says: the organisation's default", path, {}, "en"],
      ["the browser's language", path, { "accept-language": "pl-PL,pl;q=0.9,en;q=0.5" }, "pl"],
      ["?lang beats the browser", `${path}?lang=en`, { "accept-language": "pl-PL" }, "en"],
      [
        "the payment's locale beats the browser",
        pathOf(polish.paymentUrl as string),
        { "accept-language": "en-US" },
        "pl",
      ],
      ["?lang beats the locale", `${pathOf(polish.paymentUrl as string)}?lang=en`, {}, "en"],
    ];
    for (const [name, url, headers, language] of cases) {
      await s.step(name, async () => {
        const { status, html } = await page(t, url, headers);
        assert.equal(status, 200);
        assert.match(html, new RegExp(`^<!doctype html><html lang="${language}">`));
      });
    }
    await s.step("Polish without business details or a browser's word", async () => {
      const bare = await makeTestApp();
      try {
        const bareOffer = await createTestOffer(bare, { amount: 1250 });
        const payment = await createTestPayment(bare, bareOffer.qrId);
        const { html } = await page(bare, pathOf(payment.paymentUrl as string));
        assertPolish(html, "no signals");
        // Without business details the footer names the organisation.
        assert.match(
          html,
          /<footer class="seller"><p class="seller__name"><span class="seller__label">Sprzedawca:<\/span> Acme<\/p><p class="secured-by">/,
        );
      } finally {
        await bare.close();
      }
    });
  } finally {
    await t.close();
  }
});

Deno.test("[customers] the hosted page in Polish: BLIK, złoty, the seller and a switch to English", async () => {
  const { t, offer } = await setUp();
  try {
    const payment = await createTestPayment(t, offer.qrId, { quantity: 2 });
    const path = pathOf(payment.paymentUrl as string);
    const { status, html } = await page(t, path, { "accept-language": "pl" });
    assert.equal(status, 200);
    assertPolish(html, "hosted page");
    assert.match(html, /<title>Płatność dla Acme · Kawa ziarnista<\/title>/);
    assert.match(html, /<p class="summary__amount">25,00\u00a0zł<\/p>/);
    assert.match(html, /<span class="lines__quantity">2 szt. × 12,50\u00a0zł<\/span>/);
    assert.match(html, /<h2 class="panel-title" tabindex="-1">Zapłać kodem BLIK<\/h2>/);
    assert.match(html, /<label class="field-label" for="code">Kod BLIK<\/label>/);
    assert.match(
      html,
      /<button type="submit" class="button button--primary">Zapłać 25,00\u00a0zł<\/button>/,
    );
    assert.match(
      html,
      /<label class="field-label" for="email">Adres e-mail \(opcjonalnie\)<\/label>/,
    );
    assert.match(html, /Chcę fakturę/);
    assert.match(html, /<section class="sandbox-banner" aria-label="Tryb testowy">/);
    assert.match(
      html,
      new RegExp(`<a href="${path}\\?lang=en" lang="en" hreflang="en">English</a>`),
    );
    // The seller, as the consumer rights act wants it named.
    assert.match(html, /Sprzedawca:<\/span> Kawiarnia Ziarno sp. z o.o.<\/p>/);
    assert.match(
      html,
      /<span class="seller__line">ul. Marszałkowska 10\/2<\/span><span class="seller__line">00-590 Warszawa<\/span><span class="seller__line">Polska<\/span>/,
    );
    assert.match(html, /<p>NIP: 5260250274<\/p>/);
    assert.match(html, /<a href="mailto:sklep@ziarno.pl">sklep@ziarno.pl<\/a>/);
    assert.match(html, /<a href="tel:\+48221234567">\+48 22 123 45 67<\/a>/);

    // In English the same page says so in English, and its forms keep ?lang=en.
    const english = await page(t, `${path}?lang=en`, { "accept-language": "pl" });
    assert.match(english.html, /^<!doctype html><html lang="en">/);
    assert.match(english.html, /<p class="summary__amount">PLN\u00a025.00<\/p>/);
    assert.match(
      english.html,
      new RegExp(`<form class="code-form" method="post" action="${path}\\?lang=en">`),
    );
    assert.match(english.html, /Tax ID \(NIP\): 5260250274/);
    assert.match(english.html, /<span class="seller__line">Poland<\/span>/);
  } finally {
    await t.close();
  }
});

Deno.test("[customers] every outcome and error a customer can reach is all Polish", async (s) => {
  const { t, offer } = await setUp();
  const pl = { "accept-language": "pl-PL,pl;q=0.9" };
  try {
    const outcome = async (code: string | null, fields: Record<string, unknown> = {}) => {
      const payment = await createTestPayment(t, offer.qrId, fields);
      const path = pathOf(payment.paymentUrl as string);
      if (code) assert.equal((await post(t, path, { code })).status, 200);
      return path;
    };
    const cases: [string, () => Promise<string>, number, RegExp][] = [
      ["ready", () => outcome(null), 200, /Zapłać kodem BLIK/],
      ["the wait screen", () => outcome("600600"), 200, /Potwierdź płatność w aplikacji banku/],
      ["succeeded", () => outcome("777123"), 200, /Płatność zakończona/],
      [
        "declined",
        () => outcome("500500"),
        200,
        /Bank odrzucił płatność\. Spróbuj ponownie z nowym kodem/,
      ],
      ["expired code", () => outcome("700701"), 200, /Kod BLIK wygasł, zanim został użyty/],
      ["invalid code", () => outcome("123456"), 200, /Nie rozpoznaliśmy tego kodu BLIK/],
      [
        "expired link",
        async () => {
          const path = await outcome(null, { expiresInMinutes: 1 });
          t.clock.advance(60_000);
          return path;
        },
        200,
        /Link do płatności wygasł/,
      ],
      [
        "canceled",
        async () => {
          const payment = await createTestPayment(t, offer.qrId);
          await t.request("POST", `/api/v1/payments/${payment.paymentId}/cancel`);
          return pathOf(payment.paymentUrl as string);
        },
        200,
        /Płatność została anulowana/,
      ],
      [
        "an unknown payment",
        () => Promise.resolve("/pay/pay_000000000000000000000000"),
        404,
        /Nie możemy znaleźć tej strony/,
      ],
      [
        "a deactivated offer's QR code",
        async () => {
          const old = await createTestOffer(t, { name: "Herbata", amount: 900 });
          await t.request("PATCH", `/api/v1/qr/${old.qrId}`, { active: false });
          return `/o/${old.qrId}`;
        },
        410,
        /Sklep Acme nie sprzedaje już „Herbata”/,
      ],
      [
        "the checkout iframe",
        async () => pathOf((await createTestSession(t, offer.qrId)).embedUrl),
        200,
        /Zapłać kodem BLIK/,
      ],
      [
        "a locked checkout",
        async () => {
          const session = await createTestSession(t, offer.qrId);
          const path = pathOf(session.embedUrl);
          for (let i = 0; i < MAX_WRONG_CODES; i++) await post(t, path, { code: "123456" });
          return path;
        },
        200,
        /Zbyt wiele prób/,
      ],
    ];
    for (const [name, make, status, expected] of cases) {
      await s.step(name, async () => {
        const path = await make();
        const result = await page(t, path, pl);
        assert.equal(result.status, status);
        assertPolish(result.html, name);
        assert.match(result.html, expected);
      });
    }
    await s.step("a cross-site form's error page", async () => {
      const payment = await createTestPayment(t, offer.qrId);
      const response = await post(t, pathOf(payment.paymentUrl as string), "code=777123", {
        ...FORM,
        ...pl,
        "sec-fetch-site": "cross-site",
      });
      assert.equal(response.status, 403);
      const html = await response.text();
      assertPolish(html, "403");
      assert.match(html, /Ta strona jest nieaktualna/);
    });
    await s.step("a checkout taken off the allowlist", async () => {
      const session = await createTestSession(t, offer.qrId);
      await allowOrigins(t, ["https://other.example"]);
      const result = await page(t, pathOf(session.embedUrl), pl);
      await allowOrigins(t);
      assert.equal(result.status, 403);
      assertPolish(result.html, "not allowed");
      assert.match(result.html, /Płatność nie jest tu dostępna/);
    });
  } finally {
    await t.close();
  }
});

Deno.test("[customers] locale on POST /payments and checkout sessions", async (s) => {
  const { t, offer } = await setUp();
  try {
    await s.step("auto is the default and stored as no locale", async () => {
      const payment = await createTestPayment(t, offer.qrId, { locale: "auto" });
      assert.equal(payment.locale, "auto");
      assert.equal((await paymentRow(t, payment.paymentId)).locale, null);
      assert.equal((await createTestPayment(t, offer.qrId)).locale, "auto");
    });
    await s.step("the short path and an Idempotency-Key store it too", async () => {
      const short = await t.request("POST", "/payments", { qrId: offer.qrId, locale: "en" });
      assert.equal(short.status, 201);
      const body = await short.json();
      assert.equal(body.locale, "en");
      assert.equal((await paymentRow(t, body.paymentId)).locale, "en");
      const keyed = await t.request(
        "POST",
        "/api/v1/payments",
        { qrId: offer.qrId, locale: "pl" },
        {
          "idempotency-key": "order-1",
        },
      );
      assert.equal((await paymentRow(t, (await keyed.json()).paymentId)).locale, "pl");
    });
    await s.step("another language is 400 with param locale", async () => {
      const body = await expectError(
        await t.request("POST", "/api/v1/payments", { qrId: offer.qrId, locale: "de" }),
        400,
        "invalid_request",
        "parameter_invalid",
      );
      assert.equal(body.error.param, "locale");
    });
    await s.step("a session's locale reaches its page and its payments", async () => {
      const session = await createTestSession(t, offer.qrId, { locale: "en" });
      assert.equal(session.locale, "en");
      const path = pathOf(session.embedUrl);
      const { html } = await page(t, path, { "accept-language": "pl" });
      assert.match(html, /^<!doctype html><html lang="en">/);
      const state = await (await post(t, path, { code: "777123" })).json();
      assert.equal((await paymentRow(t, state.paymentId)).locale, "en");
      assert.equal((await createTestSession(t, offer.qrId)).locale, "auto");
    });
  } finally {
    await t.close();
  }
});

Deno.test("[customers] an e-mail address and an invoice request go with the code", async (s) => {
  const { t, offer } = await setUp();
  try {
    await s.step("the island's JSON stores both, the NIP without dashes", async () => {
      const payment = await createTestPayment(t, offer.qrId);
      const response = await post(t, pathOf(payment.paymentUrl as string), {
        code: "777123",
        email: " Jan.Kowalski@Example.PL ",
        invoice: true,
        companyName: "Jan Kowalski Usługi",
        taxId: "526-025-02-74",
      });
      assert.equal(response.status, 200);
      assert.deepEqual(await paymentRow(t, payment.paymentId), {
        status: "SUCCEEDED",
        customer_email: "jan.kowalski@example.pl",
        invoice_company_name: "Jan Kowalski Usługi",
        invoice_tax_id: "5260250274",
        locale: null,
      });
      const api = await (await t.request("GET", `/api/v1/payments/${payment.paymentId}`)).json();
      assert.deepEqual(api.customer, { email: "jan.kowalski@example.pl", name: null });
      // An invoice already asked for (here as the API's invoiceRequest stores it) is not asked
      // for again; the address still is.
      const asked = await createTestPayment(t, offer.qrId);
      await t.store.write((trx) =>
        trx.updateTable("payments")
          .set({ invoice_company_name: "Firma", invoice_tax_id: "5260250274" })
          .where("public_id", "=", asked.paymentId).execute()
      );
      const { html } = await page(t, pathOf(asked.paymentUrl as string));
      assert.equal(html.includes('name="email"'), true);
      assert.equal(html.includes('name="invoice"'), false);
    });
    for (
      const [name, body, param] of [
        ["a malformed address", { email: "jan@" }, "email"],
        ["an invoice without a company", { invoice: true, taxId: "5260250274" }, "companyName"],
        [
          "a NIP with a wrong checksum",
          { invoice: true, companyName: "X", taxId: "5260250275" },
          "taxId",
        ],
      ] as const
    ) {
      await s.step(`${name}: 400 param ${param}, nothing stored, no attempt`, async () => {
        const payment = await createTestPayment(t, offer.qrId);
        const path = pathOf(payment.paymentUrl as string);
        const error = await expectError(
          await post(t, path, { code: "777123", ...body }),
          400,
          "invalid_request",
          "parameter_invalid",
        );
        assert.equal(error.error.param, param);
        assert.deepEqual(await paymentRow(t, payment.paymentId), {
          status: "PENDING",
          customer_email: null,
          invoice_company_name: null,
          invoice_tax_id: null,
          locale: null,
        });
      });
    }
    await s.step("without JavaScript a wrong field comes back on the page, as typed", async () => {
      const payment = await createTestPayment(t, offer.qrId);
      const path = pathOf(payment.paymentUrl as string);
      const response = await post(
        t,
        `${path}?lang=pl`,
        "code=777123&email=jan%40&invoice=on&companyName=Firma&taxId=123",
        FORM,
      );
      assert.equal(response.status, 400);
      const html = await response.text();
      assertPolish(html, "form error");
      assert.match(
        html,
        /<p id="email-error" class="field-error">Wpisz adres e-mail, np\. jan\.kowalski@example\.pl, albo zostaw to pole puste\.<\/p>/,
      );
      assert.match(
        html,
        /name="email" class="text-input" type="email" autocomplete="email" maxlength="254" value="jan@" aria-invalid="true"/,
      );
      assert.match(html, /value="Firma"/);
      assert.equal((await paymentRow(t, payment.paymentId)).status, "PENDING");
    });
    await s.step(
      "the merchant's address stays, and an invoice is ignored where not offered",
      async () => {
        await putBusinessDetails(
          t.accounts,
          t.orgId,
          { ...DETAILS, invoiceRequests: false },
          t.clock.now(),
        );
        const payment = await createTestPayment(t, offer.qrId, {
          customer: { email: "ada@example.com" },
        });
        const path = pathOf(payment.paymentUrl as string);
        const { html } = await page(t, path);
        assert.equal(html.includes('name="email"'), false);
        assert.equal(html.includes('name="invoice"'), false);
        await post(t, path, {
          code: "500500",
          email: "other@example.com",
          invoice: true,
          companyName: "X",
          taxId: "5260250274",
        });
        const row = await paymentRow(t, payment.paymentId);
        assert.equal(row.customer_email, "ada@example.com");
        assert.equal(row.invoice_company_name, null);
        await saveDetails(t);
      },
    );
    await s.step("while code entry is locked, nothing is stored", async () => {
      const payment = await createTestPayment(t, offer.qrId);
      const path = pathOf(payment.paymentUrl as string);
      for (let i = 0; i < MAX_WRONG_CODES; i++) {
        assert.equal((await post(t, path, { code: "0" })).status, 400);
      }
      const locked = await post(t, path, { code: "777123", email: "late@example.com" });
      assert.equal(locked.status, 429);
      assert.equal((await paymentRow(t, payment.paymentId)).customer_email, null);
    });
    await s.step("a payment that is no longer payable is not changed", async () => {
      const payment = await createTestPayment(t, offer.qrId);
      const path = pathOf(payment.paymentUrl as string);
      await post(t, path, { code: "500500" });
      const response = await post(t, path, { code: "777123", email: "late@example.com" });
      assert.equal(response.status, 409);
      assert.equal((await paymentRow(t, payment.paymentId)).customer_email, null);
    });
    await s.step("in the iframe: on the session's payment, and on its next one", async () => {
      const session = await createTestSession(t, offer.qrId);
      const path = pathOf(session.embedUrl);
      const first = await (await post(t, path, {
        code: "500500",
        email: "ewa@example.pl",
        invoice: "on",
        companyName: "Ewa Nowak",
        taxId: "5260250274",
      })).json();
      const second = await (await post(t, path, { code: "777123" })).json();
      assert.notEqual(first.paymentId, second.paymentId);
      for (const paymentId of [first.paymentId, second.paymentId]) {
        const row = await paymentRow(t, paymentId);
        assert.equal(row.customer_email, "ewa@example.pl");
        assert.equal(row.invoice_tax_id, "5260250274");
      }
      const { html } = await page(t, path);
      assert.equal(html.includes('name="email"'), false, "the session's payment has an address");
    });
  } finally {
    await t.close();
  }
});

Deno.test("[customers] a failed code is not the end: the hosted page starts the payment again", async (s) => {
  const { t, offer } = await setUp();
  try {
    const payment = await createTestPayment(t, offer.qrId, {
      quantity: 2,
      customer: { email: "ola@example.pl" },
      successUrl: "https://shop.example/thanks",
      metadata: { orderId: "Z-7" },
      expiresInMinutes: 20,
      locale: "pl",
    });
    const path = pathOf(payment.paymentUrl as string);
    let next = "";
    await s.step(
      "a declined code offers a new one, and a plain form starts a new payment",
      async () => {
        assert.equal((await (await post(t, path, { code: "500500" })).json()).canRetry, true);
        const { html } = await page(t, `${path}?lang=pl`);
        assert.match(
          html,
          new RegExp(
            `<form method="post" action="${path}/again\\?lang=pl"><button type="submit" class="button button--primary">Spróbuj ponownie z nowym kodem</button></form>`,
          ),
        );
        const again = await post(t, `${path}/again?lang=pl`, "", FORM);
        assert.equal(again.status, 303);
        next = again.headers.get("location")!;
        assert.match(next, /^\/pay\/pay_[0-9A-Za-z]{30}\?lang=pl$/);
      },
    );
    await s.step("the new payment is the same purchase, and pays", async () => {
      const nextId = next.slice("/pay/".length, -"?lang=pl".length);
      const created = await (await t.request("GET", `/api/v1/payments/${nextId}`)).json();
      assert.deepEqual(
        {
          status: created.status,
          amount: created.amount,
          quantity: created.quantity,
          customer: created.customer,
          successUrl: created.successUrl,
          metadata: created.metadata,
          expiresAt: created.expiresAt,
          locale: created.locale,
        },
        {
          status: "PENDING",
          amount: 2500,
          quantity: 2,
          customer: { email: "ola@example.pl", name: null },
          successUrl: "https://shop.example/thanks",
          metadata: { orderId: "Z-7" },
          expiresAt: payment.expiresAt,
          locale: "pl",
        },
      );
      assert.equal(
        (await (await post(t, `/pay/${nextId}`, { code: "777123" })).json()).phase,
        "succeeded",
      );
      // Only a failed payment starts again; a pending one (a provider that could not be
      // reached leaves it so) takes the next code itself.
      assert.equal((await post(t, `/pay/${nextId}/again`, "", FORM)).status, 409);
      const pending = await createTestPayment(t, offer.qrId);
      const same = await post(t, `/pay/${pending.paymentId}/again`, "", FORM);
      assert.equal(same.status, 303);
      assert.equal(same.headers.get("location"), `/pay/${pending.paymentId}`);
    });
    await s.step("wrong codes count across the new payments, up to the lock", async () => {
      let current = pathOf((await createTestPayment(t, offer.qrId)).paymentUrl as string);
      for (let i = 1; i < MAX_WRONG_CODES; i++) {
        assert.equal((await (await post(t, current, { code: "123456" })).json()).phase, "failed");
        current = (await post(t, `${current}/again`, "", FORM)).headers.get("location")!;
      }
      const fifth = await (await post(t, current, { code: "123456" })).json();
      assert.equal(fifth.phase, "locked");
      assert.equal((await post(t, `${current}/again`, "", FORM)).status, 429);
    });
    await s.step("past its expiry a failed payment does not start again", async () => {
      const short = await createTestPayment(t, offer.qrId, { expiresInMinutes: 1 });
      const shortPath = pathOf(short.paymentUrl as string);
      await post(t, shortPath, { code: "500500" });
      t.clock.advance(60_000);
      const { html } = await page(t, shortPath, { "accept-language": "pl" });
      assert.match(
        html,
        /Tego linku do płatności nie można już użyć\. Poproś sklep Acme o nowy link\./,
      );
      assert.equal((await post(t, `${shortPath}/again`, "", FORM)).status, 409);
    });
  } finally {
    await t.close();
  }
});
