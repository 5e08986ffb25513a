import assert from "node:assert/strict";
import {
  createTestOffer,
  createTestPayment,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { eventsOf, paidPayment } from "./support/billing_helpers.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";

async function putDetails(t: TestApp, body: unknown): Promise<Response> {
  return await t.request("PUT", "/api/v1/business-details", body);
}

/** Runs the e-mail job until nothing is being sent. */
async function sendDue(t: TestApp): Promise<void> {
  await t.services.scheduler.runDue();
  await t.emails.idle();
}

async function mailbox(t: TestApp): Promise<Record<string, unknown>[]> {
  const response = await t.request("GET", "/api/v1/sandbox/emails");
  assert.equal(response.status, 200);
  return (await response.json()).data;
}

Deno.test("[business details] 404 before the first PUT, then exactly what was saved", async () => {
  const t = await makeTestApp();
  try {
    await expectError(
      await t.request("GET", "/api/v1/business-details"),
      404,
      "not_found",
      "resource_not_found",
      "This organisation has no business details yet; set them with PUT " +
        "/api/v1/business-details (or in the panel under Team and plan).",
    );
    const put = await putDetails(t, SHOP_DETAILS);
    assert.equal(put.status, 200);
    const saved = {
      ...SHOP_DETAILS,
      taxId: "5260250274",
      contactEmail: "kontakt@ziarno.example.pl",
    };
    assert.deepEqual(await put.json(), saved);
    const got = await t.request("GET", "/api/v1/business-details");
    assert.equal(got.status, 200);
    assert.equal(got.headers.get("content-type"), "application/json");
    assert.deepEqual(await got.json(), saved);
  } finally {
    await t.close();
  }
});

Deno.test("[business details] a NIP with a wrong checksum is 400 taxId and changes nothing", async () => {
  const t = await makeTestApp();
  try {
    assert.equal((await putDetails(t, SHOP_DETAILS)).status, 200);
    const wrong = await putDetails(t, { ...SHOP_DETAILS, legalName: "Inna", taxId: "5260250275" });
    const body = await expectError(wrong, 400, "invalid_request", "parameter_invalid");
    assert.equal(body.error.param, "taxId");
    const unknown = await putDetails(t, { ...SHOP_DETAILS, vatId: "x" });
    await expectError(unknown, 400, "invalid_request", "parameter_unknown");
    const got = await (await t.request("GET", "/api/v1/business-details")).json();
    assert.equal(got.legalName, SHOP_DETAILS.legalName);
  } finally {
    await t.close();
  }
});

Deno.test("[payments] invoiceRequest is kept on the payment and its events, where offered", async (t) => {
  const app = await makeTestApp();
  try {
    const { qrId } = await createTestOffer(app);
    const invoiceRequest = { companyName: "Biuro Nowak", taxId: "526 025 02 74" };
    await t.step("refused before business details offer invoices", async () => {
      const response = await app.request("POST", "/payments", { qrId, invoiceRequest });
      const body = await expectError(response, 400, "invalid_request", "parameter_invalid");
      assert.equal(body.error.param, "invoiceRequest");
      await putDetails(app, { ...SHOP_DETAILS, invoiceRequests: false });
      const again = await app.request("POST", "/payments", { qrId, invoiceRequest });
      const refused = await expectError(again, 400, "invalid_request", "parameter_invalid");
      assert.equal(refused.error.param, "invoiceRequest");
      assert.equal((await eventsOf(app, "payment.created")).length, 0);
    });
    await t.step("a wrong NIP is 400 invoiceRequest.taxId", async () => {
      await putDetails(app, SHOP_DETAILS);
      const response = await app.request("POST", "/payments", {
        qrId,
        invoiceRequest: { companyName: "Biuro Nowak", taxId: "1234567890" },
      });
      const body = await expectError(response, 400, "invalid_request", "parameter_invalid");
      assert.equal(body.error.param, "invoiceRequest.taxId");
    });
    await t.step("accepted, normalised, on the resource and in payment.created", async () => {
      const created = await createTestPayment(app, qrId, { invoiceRequest });
      const expected = { companyName: "Biuro Nowak", taxId: "5260250274" };
      assert.deepEqual(created.invoiceRequest, expected);
      const got = await (await app.request("GET", `/api/v1/payments/${created.paymentId}`)).json();
      assert.deepEqual(got.invoiceRequest, expected);
      const [event] = await eventsOf(app, "payment.created");
      assert.deepEqual(event.data.invoiceRequest, expected);
      const plain = await createTestPayment(app, qrId);
      assert.equal(plain.invoiceRequest, null);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[payments] a malformed customer e-mail is 400 customer.email", async () => {
  const t = await makeTestApp();
  try {
    const { qrId } = await createTestOffer(t);
    for (const email of ["ada@", "ada example.com", "ada@example"]) {
      const response = await t.request("POST", "/payments", { qrId, customer: { email } });
      const body = await expectError(response, 400, "invalid_request", "parameter_invalid");
      assert.equal(body.error.param, "customer.email");
    }
    assert.equal((await eventsOf(t, "payment.created")).length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("[sandbox mailbox] a confirmation and a refund notice land in the mailbox in Polish", async () => {
  const t = await makeTestApp();
  try {
    await putDetails(t, SHOP_DETAILS);
    const payment = await paidPayment(t, { name: "Kawa ziarnista", amount: 625 }, {
      quantity: 2,
      customer: { email: "Jan.Kowalski@Example.com" },
      invoiceRequest: { companyName: "Biuro Nowak", taxId: "5260250274" },
    });
    await paidPayment(t, { name: "No address" });
    await sendDue(t);
    const [confirmation, ...others] = await mailbox(t);
    assert.equal(others.length, 0);
    assert.equal(confirmation.to, "jan.kowalski@example.com");
    assert.equal(confirmation.kind, "PAYMENT_CONFIRMATION");
    assert.equal(confirmation.language, "pl");
    assert.equal(confirmation.paymentId, payment.paymentId);
    assert.equal(confirmation.createdAt, "2026-11-21T10:00:00.000Z");
    assert.equal(confirmation.subject, "Potwierdzenie płatności – Kawiarnia Ziarno sp. z o.o.");
    assert.match(String(confirmation.messageId), /^<em_[0-9A-Za-z]{30}@sandbox\.test>$/);
    assert.equal(
      confirmation.text,
      [
        "Dziękujemy za zakupy",
        "Otrzymaliśmy Twoją płatność BLIK na kwotę 12,50\u00a0zł. Zachowaj tę wiadomość – to " +
        "potwierdzenie zakupu.",
        "Twoje zamówienie (1 pozycja)\nKawa ziarnista – 2 szt. × 6,25\u00a0zł\nRazem: 12,50\u00a0zł",
        `Szczegóły płatności\nData: 21 listopada 2026 11:00\nNumer płatności: ${payment.paymentId}` +
        "\nMetoda płatności: BLIK",
        "Faktura\nPoproszono o fakturę na: Biuro Nowak, NIP 5260250274. Sprzedawca wystawi ją i " +
        "prześle osobno.",
        "Sprzedawca\nKawiarnia Ziarno sp. z o.o.\nul. Mokotowska 12\n00-561 Warszawa\n" +
        "NIP: 5260250274\nW razie pytań napisz do nas: kontakt@ziarno.example.pl lub zadzwoń: " +
        "+48 22 123 45 67",
        "Możesz odpowiedzieć na tę wiadomość – odpowiedź trafi do sprzedawcy.\nWiadomość od " +
        "sprzedawcy Kawiarnia Ziarno sp. z o.o., wysłana przez Paystead – serwis obsługujący " +
        "płatność.",
      ].join("\n\n") + "\n",
    );
    assert.match(String(confirmation.html), /^<!doctype html><html lang="pl">/);
    assert.match(String(confirmation.html), /<h1[^>]*>Dziękujemy za zakupy<\/h1>/);

    const refund = await t.request("POST", `/api/v1/payments/${payment.paymentId}/refunds`, {
      amount: 625,
    });
    assert.equal(refund.status, 201);
    const { refundId } = await refund.json();
    await t.services.scheduler.runDue();
    await sendDue(t);
    const [notice, older] = await mailbox(t);
    assert.equal(older.emailId, confirmation.emailId, "newest first");
    const page = await t.request("GET", "/api/v1/sandbox/emails?limit=1");
    assert.deepEqual((await page.json()).hasMore, true);
    const next = await t.request(
      "GET",
      `/api/v1/sandbox/emails?limit=1&startingAfter=${notice.emailId}`,
    );
    const rest = await next.json();
    assert.deepEqual(rest.data.map((email: { emailId: string }) => email.emailId), [
      confirmation.emailId,
    ]);
    assert.equal(rest.hasMore, false);
    assert.equal(notice.kind, "REFUND_NOTICE");
    assert.equal(notice.subject, "Zwrot środków – Kawiarnia Ziarno sp. z o.o.");
    assert.match(
      String(notice.text),
      /^Zwrot środków\n\nZwracamy Ci 6,25\u00a0zł z płatności z dnia 21 listopada 2026 11:00\. /,
    );
    assert.ok(
      String(notice.text).includes(`Kwota zwrotu: 6,25\u00a0zł\nNumer zwrotu: ${refundId}`),
    );
  } finally {
    await t.close();
  }
});

Deno.test("[openapi] the document describes business details, invoiceRequest and the mailbox", async () => {
  const t = await makeTestApp();
  try {
    const doc = await (await t.app.request("/api/v1/openapi.json")).json();
    assert.deepEqual(Object.keys(doc.paths["/api/v1/business-details"]).sort(), ["get", "put"]);
    assert.deepEqual(Object.keys(doc.paths["/api/v1/sandbox/emails"]), ["get"]);
    const schemas = doc.components.schemas;
    assert.deepEqual(schemas.InvoiceRequest.required, ["companyName", "taxId"]);
    assert.equal(
      schemas.CreatePaymentRequest.properties.invoiceRequest.$ref,
      "#/components/schemas/InvoiceRequest",
    );
    assert.ok(schemas.Payment.required.includes("invoiceRequest"));
    assert.deepEqual(schemas.SandboxEmail.required.sort(), [
      "createdAt",
      "emailId",
      "html",
      "kind",
      "language",
      "messageId",
      "paymentId",
      "subject",
      "text",
      "to",
    ]);
    assert.deepEqual(schemas.BusinessDetails.required.sort(), [
      "address",
      "contactEmail",
      "defaultLanguage",
      "invoiceRequests",
      "legalName",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("[sandbox mailbox] the business's default language decides when the payment names none", async () => {
  const t = await makeTestApp();
  try {
    await putDetails(t, { ...SHOP_DETAILS, defaultLanguage: "en", contactPhone: undefined });
    const payment = await paidPayment(t, { name: "Coffee beans", amount: 1250 }, {
      customer: { email: "jane@example.com" },
    });
    await sendDue(t);
    const [email] = await mailbox(t);
    assert.equal(email.language, "en");
    assert.equal(email.subject, "Payment confirmation – Kawiarnia Ziarno sp. z o.o.");
    assert.equal(
      email.text,
      [
        "Thank you for your purchase",
        "We have received your BLIK payment of PLN\u00a012.50. Please keep this e-mail: it " +
        "confirms your purchase.",
        "Your order (1 item)\nCoffee beans – 1 pc. × PLN\u00a012.50\nTotal: PLN\u00a012.50",
        `Payment details\nDate: 21 November 2026 at 11:00\nPayment ID: ${payment.paymentId}\n` +
        "Payment method: BLIK",
        "Seller\nKawiarnia Ziarno sp. z o.o.\nul. Mokotowska 12\n00-561 Warszawa\n" +
        "Tax ID (NIP): 5260250274\nQuestions? Write to us: kontakt@ziarno.example.pl",
        "You can reply to this e-mail: your reply goes to the seller.\nSent on behalf of " +
        "Kawiarnia Ziarno sp. z o.o. by Paystead, which processed the payment.",
      ].join("\n\n") + "\n",
    );
    assert.match(String(email.html), /^<!doctype html><html lang="en">/);
  } finally {
    await t.close();
  }
});

Deno.test("[sandbox mailbox] the payment's own locale wins over the business's default", async () => {
  const t = await makeTestApp();
  try {
    await putDetails(t, SHOP_DETAILS);
    const { qrId } = await createTestOffer(t);
    const { paymentId } = await createTestPayment(t, qrId, {
      customer: { email: "jane@example.com" },
    });
    // The customer chose English on the hosted page (the pages set `locale`; see CONTRACT.md).
    await t.store.write((trx) =>
      trx.updateTable("payments").set({ locale: "en" }).where("public_id", "=", paymentId)
        .execute()
    );
    const paid = await t.request("POST", `/api/v1/payments/${paymentId}/complete`, {
      code: "777123",
    });
    assert.equal(paid.status, 200);
    await sendDue(t);
    const [email] = await mailbox(t);
    assert.equal(email.language, "en");
    assert.equal(email.subject, "Payment confirmation – Kawiarnia Ziarno sp. z o.o.");
  } finally {
    await t.close();
  }
});
