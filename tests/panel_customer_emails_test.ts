import assert from "node:assert/strict";
import { paidPayment } from "./support/billing_helpers.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { createTestOffer, createTestPayment, type TestApp } from "./support/helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";

/** Runs the e-mail job until nothing is being sent. */
async function sendDue(t: TestApp): Promise<void> {
  await t.services.scheduler.runDue();
  await t.emails.idle();
}

/** The text of the payment page's "Customer e-mails" card. */
async function emailsCard(agent: PanelAgent, paymentId: string): Promise<string> {
  const html = await (await agent.get(`/panel/payments/${paymentId}`)).text();
  const card = html.match(/<section class="card " id="emails"[\s\S]*?<\/section>/)?.[0];
  assert.ok(card, "the page has the e-mails card");
  return pageText(card);
}

async function emailIds(t: TestApp): Promise<string[]> {
  const rows = await t.store.db.selectFrom("customer_emails").select("public_id").orderBy("id")
    .execute();
  return rows.map((row) => row.public_id);
}

Deno.test("[panel e-mails] a payment's page shows each e-mail; owners resend, members cannot", async (t) => {
  const { t: app, agent } = await signedInApp({ role: "OWNER" });
  try {
    await app.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
    const { paymentId } = await paidPayment(app, {}, { customer: { email: "jan@example.com" } });

    await t.step("queued, then sent into the sandbox mailbox", async () => {
      const [emailId] = await emailIds(app);
      const queued = await emailsCard(agent, paymentId);
      assert.ok(queued.includes("Payment confirmation to jan@example.com"), queued);
      assert.ok(queued.includes("Sending 0 —"), queued);
      assert.equal(queued.includes("Resend"), false, "nothing to resend while it is sending");
      const early = await agent.post(`/panel/payments/${paymentId}/emails/${emailId}/resend`);
      assert.equal(early.status, 409);
      assert.deepEqual(await emailIds(app), [emailId]);
      await sendDue(app);
      const sent = await emailsCard(agent, paymentId);
      assert.ok(sent.includes(`<${emailId}@sandbox.test>`), sent);
      assert.ok(sent.includes("Sent to the sandbox mailbox 1 —"), sent);
      assert.ok(sent.includes("Resend"), sent);
    });

    await t.step("an owner resends: a new e-mail with its own Message-ID", async () => {
      const [first] = await emailIds(app);
      const response = await agent.post(`/panel/payments/${paymentId}/emails/${first}/resend`);
      assert.equal(response.status, 303);
      assert.equal(
        response.headers.get("location"),
        `/panel/payments/${paymentId}?notice=email-resent`,
      );
      await sendDue(app);
      const ids = await emailIds(app);
      assert.equal(ids.length, 2);
      const card = await emailsCard(agent, paymentId);
      assert.ok(card.includes("(resent)"), card);
      assert.ok(card.includes(`<${ids[1]}@sandbox.test>`), card);
      const mailbox = await (await app.request("GET", "/api/v1/sandbox/emails")).json();
      assert.deepEqual(mailbox.data.map((email: { emailId: string }) => email.emailId), [
        ids[1],
        ids[0],
      ]);
    });

    await t.step("an e-mail of another payment is not found there", async () => {
      const other = await paidPayment(app);
      const [first] = await emailIds(app);
      const response = await agent.post(
        `/panel/payments/${other.paymentId}/emails/${first}/resend`,
      );
      assert.equal(response.status, 404);
      assert.equal((await emailIds(app)).length, 2);
    });

    await t.step("a member sees the e-mails but no Resend, and is refused", async () => {
      const member = await addUser(app, { email: "member@acme.test", role: "MEMBER" });
      const memberAgent = new PanelAgent(app);
      await memberAgent.signIn(member.email, member.password);
      const card = await emailsCard(memberAgent, paymentId);
      assert.ok(card.includes("Payment confirmation to jan@example.com"), card);
      assert.equal(card.includes("Resend"), false);
      const [first] = await emailIds(app);
      const response = await memberAgent.post(
        `/panel/payments/${paymentId}/emails/${first}/resend`,
      );
      assert.equal(response.status, 403);
      assert.equal((await emailIds(app)).length, 2);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[panel e-mails] production without SMTP_URL marks the e-mail not sent and says why", async () => {
  const { t: app, agent } = await signedInApp({ role: "OWNER", environment: "production" });
  try {
    const { qrId } = await createTestOffer(app);
    const { paymentId } = await createTestPayment(app, qrId, {
      customer: { email: "jan@example.com" },
    });
    // The customer enters a BLIK code on the hosted page; the fake PayU completes the order.
    const code = await app.app.request(`/pay/${paymentId}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify({ code: "777123" }),
    });
    assert.equal(code.status, 200);
    await app.payu!.idle();
    await sendDue(app);
    await app.payu!.idle();
    const paid = await (await app.request("GET", `/api/v1/payments/${paymentId}`)).json();
    assert.equal(paid.status, "SUCCEEDED");
    await sendDue(app);
    const card = await emailsCard(agent, paymentId);
    assert.ok(
      card.includes(
        "Not sent 0 Not sent: this production process has no SMTP_URL, so it sends no " +
          "e-mails. Set SMTP_URL and MAIL_FROM, restart, then resend.",
      ),
      card,
    );
    const [emailId] = await emailIds(app);
    const resend = await agent.post(`/panel/payments/${paymentId}/emails/${emailId}/resend`);
    assert.equal(resend.status, 409);
    assert.equal((await emailIds(app)).length, 1);
    const mailbox = await app.request("GET", "/api/v1/sandbox/emails");
    assert.equal(mailbox.status, 403);
    assert.equal((await mailbox.json()).error.code, "sandbox_only");
  } finally {
    await app.close();
  }
});

Deno.test("[panel mailbox] lists what customers would get and frames each e-mail isolated", async () => {
  const { t: app, agent } = await signedInApp({ role: "OWNER" });
  try {
    await app.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
    await paidPayment(app, {}, { customer: { email: "jan@example.com" } });
    await sendDue(app);
    const [emailId] = await emailIds(app);
    const list = pageText(await (await agent.get("/panel/developers/mailbox")).text());
    assert.ok(
      list.includes(
        "Potwierdzenie płatności – Kawiarnia Ziarno sp. z o.o. Payment confirmation " +
          "jan@example.com pl",
      ),
      list,
    );
    const page = await agent.get(`/panel/developers/mailbox/${emailId}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-security-policy") ?? "", /frame-src 'self'/);
    const html = await page.text();
    assert.ok(
      html.includes(`src="/panel/developers/mailbox/${emailId}/html" sandbox `),
      "the e-mail is framed with every sandbox restriction",
    );
    assert.ok(pageText(html).includes("From Paystead <no-reply@sandbox.test>"));
    const body = await agent.get(`/panel/developers/mailbox/${emailId}/html`);
    assert.equal(body.status, 200);
    assert.equal(body.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(
      body.headers.get("content-security-policy"),
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; " +
        "base-uri 'none'; frame-ancestors 'self'; sandbox",
    );
    assert.equal(body.headers.get("x-frame-options"), "SAMEORIGIN");
    assert.match(await body.text(), /^<!doctype html><html lang="pl">/);

    const member = await addUser(app, { email: "member@acme.test", role: "MEMBER" });
    const memberAgent = new PanelAgent(app);
    await memberAgent.signIn(member.email, member.password);
    assert.equal((await memberAgent.get(`/panel/developers/mailbox/${emailId}/html`)).status, 403);
  } finally {
    await app.close();
  }
});

Deno.test("[panel business details] owners save them under Team and plan; a wrong NIP is shown", async (t) => {
  const { t: app, agent } = await signedInApp({ role: "ADMIN" });
  const form = {
    legalName: "Kawiarnia Ziarno sp. z o.o.",
    "address.line1": "ul. Mokotowska 12",
    "address.line2": "",
    "address.postalCode": "00-561",
    "address.city": "Warszawa",
    "address.country": "pl",
    taxId: "526-025-02-75",
    contactEmail: "kontakt@ziarno.example.pl",
    contactPhone: "",
    defaultLanguage: "en",
    invoiceRequests: "on",
  };
  try {
    await t.step("a wrong NIP: 400, the form kept, the field marked, nothing saved", async () => {
      const response = await agent.post("/panel/team/business-details", form);
      assert.equal(response.status, 400);
      const html = await response.text();
      assert.ok(html.includes('value="526-025-02-75"'));
      assert.match(html, /id="field-taxId"[^>]*aria-invalid="true"/);
      assert.ok(
        pageText(html).includes("'taxId': must be a NIP: 10 digits with a valid checksum."),
      );
      assert.equal((await app.request("GET", "/api/v1/business-details")).status, 404);
    });

    await t.step("a good one: saved, normalised, the same through the API", async () => {
      const response = await agent.post("/panel/team/business-details", {
        ...form,
        taxId: "526-025-02-74",
      });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get("location"), "/panel/team?notice=business-saved");
      const saved = await (await app.request("GET", "/api/v1/business-details")).json();
      assert.deepEqual(saved, {
        legalName: "Kawiarnia Ziarno sp. z o.o.",
        address: {
          line1: "ul. Mokotowska 12",
          postalCode: "00-561",
          city: "Warszawa",
          country: "PL",
        },
        taxId: "5260250274",
        contactEmail: "kontakt@ziarno.example.pl",
        defaultLanguage: "en",
        invoiceRequests: true,
      });
    });

    await t.step("a member reads them and may not change them", async () => {
      const member = await addUser(app, { email: "member@acme.test", role: "MEMBER" });
      const memberAgent = new PanelAgent(app);
      await memberAgent.signIn(member.email, member.password);
      const text = pageText(await (await memberAgent.get("/panel/team")).text());
      assert.ok(
        text.includes(
          "Legal name Kawiarnia Ziarno sp. z o.o. Address ul. Mokotowska 12, 00-561 Warszawa, PL " +
            "NIP 5260250274",
        ),
        text,
      );
      const refused = await memberAgent.post("/panel/team/business-details", form);
      assert.equal(refused.status, 403);
    });
  } finally {
    await app.close();
  }
});
