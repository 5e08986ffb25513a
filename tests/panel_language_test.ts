import assert from "node:assert/strict";
import { findUserByEmail } from "../db/users.ts";
import { CATALOGUES, translator } from "../lib/i18n/mod.ts";
import { translateError } from "../lib/panel/error_text.ts";
import { LinkOnlyProvider, paidPayment } from "./support/billing_helpers.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { createTestOffer, createTestPayment, type TestApp } from "./support/helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";
import { payuStatement } from "./support/payu_statement.ts";

const POLISH = { "accept-language": "pl-PL,pl;q=0.9,en;q=0.8" };

/** The page's `<html lang>`. */
function langOf(html: string): string | undefined {
  return /<html lang="([^"]*)"/.exec(html)?.[1];
}

Deno.test("[panel language] English without a choice or Accept-Language, Polish when the browser asks", async (t) => {
  const { t: app, agent } = await signedInApp();
  try {
    const offer = await createTestOffer(app, { name: "Kawa", amount: 1250 });
    await t.step("no Accept-Language: English, as before", async () => {
      const page = await (await agent.get("/panel/offers")).text();
      assert.equal(langOf(page), "en");
      assert.match(pageText(page), /Home Payments Offers Team and plan/);
      assert.match(pageText(page), /Kawa PLN 12\.50 One-time Active/);
    });
    await t.step("Accept-Language pl: Polish words, money and <html lang>", async () => {
      const page = await (await agent.get("/panel/offers", POLISH)).text();
      assert.equal(langOf(page), "pl");
      assert.match(pageText(page), /Strona główna Płatności Oferty Zespół i plan/);
      assert.match(pageText(page), /Kawa 12,50 zł Jednorazowo Aktywna/);
      assert.match(page, /<title>Oferty · Acme · Paystead Sandbox<\/title>/);
    });
    await t.step("a notice comes in the page's language", async () => {
      const page = await (await agent.get(`/panel/offers/${offer.qrId}?notice=saved`, POLISH))
        .text();
      assert.match(pageText(page), /Zmiany zostały zapisane\./);
    });
    await t.step("the sign-in page follows the browser too", async () => {
      const page = await (await new PanelAgent(app).get("/panel/sign-in", POLISH)).text();
      assert.equal(langOf(page), "pl");
      assert.match(pageText(page), /Logowanie · Paystead/);
      assert.match(
        page,
        /<button type="submit" class="button button--primary button--block">\s*Zaloguj się\s*<\/button>/,
      );
    });
    await t.step("an error page in the panel is Polish", async () => {
      const response = await agent.get("/panel/no-such-page", POLISH);
      assert.equal(response.status, 404);
      const page = await response.text();
      assert.equal(langOf(page), "pl");
      assert.match(pageText(page), /Nie znaleziono .* Wróć na stronę główną/);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[panel language] Account -> Language is stored with the user and beats the browser", async (t) => {
  const { t: app, agent, email } = await signedInApp();
  try {
    const stored = async () => (await findUserByEmail(app.accounts.db, email))?.language ?? null;
    await t.step("choosing English while the browser asks for Polish", async () => {
      const response = await agent.post("/panel/account/language", { language: "en" }, {
        headers: POLISH,
      });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get("location"), "/panel/account?notice=language-changed");
      assert.equal(await stored(), "en");
      const page = await (await agent.get("/panel/account?notice=language-changed", POLISH))
        .text();
      assert.equal(langOf(page), "en");
      assert.match(pageText(page), /Your language is saved\./);
      assert.match(page, /<option value="en" selected lang="en">English<\/option>/);
    });
    await t.step("choosing Polski: every page is Polish, whatever the browser says", async () => {
      assert.equal((await agent.post("/panel/account/language", { language: "pl" })).status, 303);
      assert.equal(await stored(), "pl");
      const page = await (await agent.get("/panel/account")).text();
      assert.equal(langOf(page), "pl");
      assert.match(pageText(page), /Konto Twoje dane logowania/);
    });
    await t.step("something else is a 400 that changes nothing", async () => {
      const response = await agent.post("/panel/account/language", { language: "de" });
      assert.equal(response.status, 400);
      assert.match(
        pageText(await response.text()),
        /Wybierz English, Polski lub język przeglądarki\./,
      );
      assert.equal(await stored(), "pl");
    });
    await t.step("the browser's language again", async () => {
      assert.equal((await agent.post("/panel/account/language", { language: "auto" })).status, 303);
      assert.equal(await stored(), null);
      assert.equal(langOf(await (await agent.get("/panel/account")).text()), "en");
      assert.equal(langOf(await (await agent.get("/panel/account", POLISH)).text()), "pl");
    });
  } finally {
    await app.close();
  }
});

Deno.test("[panel language] the domain's form errors are shown in Polish", async () => {
  const { t: app, agent } = await signedInApp();
  try {
    const cases: [string, Record<string, string>, string][] = [
      [
        "/panel/offers",
        { name: "", amount: "12.50", currency: "PLN" },
        "Pole „name” nie może być puste.",
      ],
      [
        "/panel/offers",
        { name: "Kawa", amount: "abc", currency: "PLN" },
        "Wpisz kwotę, np. 12,50 (najwyżej 2 cyfry po przecinku).",
      ],
      [
        "/panel/developers/webhooks",
        { url: "https://x.example/h", scope: "some" },
        "Zaznacz co najmniej jedno zdarzenie albo wybierz wszystkie zdarzenia.",
      ],
      ["/panel/password", {
        current: "x",
        password: "violet harbour tractor ninety",
        confirm: "violet",
      }, "Hasła nie są takie same."],
      ["/panel/password", {
        current: "wrong",
        password: "violet harbour tractor ninety",
        confirm: "violet harbour tractor ninety",
      }, "Obecne hasło jest nieprawidłowe."],
    ];
    for (const [path, form, message] of cases) {
      const response = await agent.post(path, form, { headers: POLISH });
      assert.equal(response.status, 400, path);
      assert.ok(pageText(await response.text()).includes(message), `${path}: ${message}`);
    }
  } finally {
    await app.close();
  }
});

/**
 * The literal stretches of the English panel catalogue that a Polish page must not carry: each
 * message's longest run of text between placeholders, where it differs from the Polish one.
 */
function englishFragments(): string[] {
  const fragments: string[] = [];
  for (const [key, english] of Object.entries(CATALOGUES.en)) {
    if (!key.startsWith("panel.") || key.startsWith("panel.error.")) continue;
    if (english === CATALOGUES.pl[key as keyof typeof CATALOGUES.pl]) continue;
    const longest = english.split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\[\w+\]/)
      .map((part) => part.replace(/''/g, "'").trim())
      .sort((a, b) => b.length - a.length)[0];
    if (longest && longest.length >= 16) fragments.push(longest);
  }
  return fragments;
}

/**
 * The English fragments found on each of `paths` as `agent` sees it in Polish, as `path: fragment`.
 */
async function englishOn(agent: PanelAgent, paths: string[]): Promise<string[]> {
  const fragments = englishFragments();
  const found: string[] = [];
  for (const path of paths) {
    // The islands' props carry their words too: decode them into the text that is checked.
    const html = (await (await agent.get(path, POLISH)).text()).replace(/&quot;/g, '"');
    const text = pageText(html);
    for (const fragment of fragments) {
      if (text.includes(fragment) || html.includes(fragment)) found.push(`${path}: ${fragment}`);
    }
  }
  return found;
}

Deno.test("[panel language] no panel page rendered in Polish carries a sentence of the English catalogue", async () => {
  const { t: app, agent } = await signedInApp();
  try {
    await addUser(app, { email: "grace@acme.test", role: "MEMBER" });
    const offer = await createTestOffer(app, { name: "Kawa", amount: 1250 });
    const payment = await app.request("POST", "/api/v1/payments", { qrId: offer.qrId });
    const { paymentId } = await payment.json();
    await app.request("POST", `/api/v1/payments/${paymentId}/complete`, { code: "777123" });
    const endpoint = await (await app.request("POST", "/api/v1/webhook-endpoints", {
      url: "https://shop.example/hooks",
    })).json();
    const pages = [
      "/panel",
      "/panel/payments",
      `/panel/payments/${paymentId}`,
      "/panel/offers",
      "/panel/offers/new",
      `/panel/offers/${offer.qrId}`,
      "/panel/team",
      "/panel/account",
      "/panel/developers",
      "/panel/developers/api-keys",
      "/panel/developers/webhooks",
      "/panel/developers/webhooks/new",
      `/panel/developers/webhooks/${endpoint.id}`,
      "/panel/developers/checkout",
      "/panel/developers/quickstart",
      "/panel/developers/config-transfer",
      "/panel/payments/export",
      "/panel/payments/reconciliations",
      // Business details not set yet, and a mailbox with no e-mail in it.
      "/panel/developers/mailbox",
      // The API reference is left out: its operations and tags are the OpenAPI document's words.
      "/panel/no-such-page",
    ];
    const fragments = englishFragments();
    assert.ok(fragments.length > 300, `${fragments.length} fragments`);
    assert.deepEqual(await englishOn(agent, pages), []);
  } finally {
    await app.close();
  }
});

Deno.test("[panel language] a payment's customer e-mails and its subscription's renewal by link are Polish", async () => {
  const { t: app, agent } = await signedInApp({ role: "OWNER", provider: new LinkOnlyProvider() });
  try {
    const offer = await createTestOffer(app, { name: "Kawa", recurring: { interval: "MONTH" } });
    const first = await createTestPayment(app, offer.qrId, {
      customer: { email: "ada@example.com" },
    });
    await app.request("POST", `/api/v1/payments/${first.paymentId}/complete`, { code: "777123" });
    const refund = await app.request("POST", `/api/v1/payments/${first.paymentId}/refunds`, {
      amount: 100,
    });
    assert.equal(refund.status, 201);
    for (const days of [27, 3]) {
      assert.equal(
        (await app.request("POST", "/api/v1/sandbox/clock/advance", { days })).status,
        200,
      );
      for (let round = 0; round < 3; round++) {
        await app.services.scheduler.runDue();
        await app.emails.idle();
      }
    }
    const [subscription] = (await (await app.request("GET", "/api/v1/subscriptions")).json()).data;
    const link = subscription.renewalPaymentId;
    assert.match(link, /^pay_\w{30}$/);
    const page = pageText(
      await (await agent.get(`/panel/payments/${first.paymentId}`, POLISH)).text(),
    );
    assert.ok(
      page.includes(
        "E-maile do klienta E-maile wysłane do klienta E-mail Status Próby Ostatni błąd Akcja " +
          "Potwierdzenie płatności do ada@example.com",
      ),
      page,
    );
    assert.ok(page.includes("Wysłano do skrzynki sandboxa 1 —"), page);
    assert.ok(page.includes("Powiadomienie o zwrocie do ada@example.com"), page);
    assert.ok(page.includes("Wyślij ponownie"), page);
    assert.ok(page.includes("Wysłać ten e-mail ponownie do ada@example.com?"), page);
    assert.match(
      page,
      new RegExp(
        `Następny krok odnowienia .* Odnowienie przez link do płatności Płatność za odnowienie ` +
          `${link} Oczekuje Link do płatności http://sandbox\\.test/pay/${link} Do opłacenia do .* ` +
          "E-maile Powiadomienie o odnowieniu do ada@example\\.com: Wysłano, dodano do kolejki .* " +
          "Przypomnienie o odnowieniu do ada@example\\.com: Wysłano, dodano do kolejki ",
      ),
    );
    assert.deepEqual(
      await englishOn(agent, [`/panel/payments/${first.paymentId}`, `/panel/payments/${link}`]),
      [],
    );
  } finally {
    await app.close();
  }
});

Deno.test("[panel language] a customer e-mail production could not send says why in Polish", async () => {
  const { t: app, agent } = await signedInApp({ role: "OWNER", environment: "production" });
  try {
    const { qrId } = await createTestOffer(app);
    const { paymentId } = await createTestPayment(app, qrId, {
      customer: { email: "jan@example.com" },
    });
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
    await app.services.scheduler.runDue();
    await app.payu!.idle();
    const page = pageText(await (await agent.get(`/panel/payments/${paymentId}`, POLISH)).text());
    assert.ok(
      page.includes(
        "Nie wysłano 0 Nie wysłano: ten proces produkcyjny nie ma ustawionej zmiennej SMTP_URL",
      ),
      page,
    );
    const rows = await app.store.db.selectFrom("customer_emails").select("public_id").execute();
    const resend = await agent.post(
      `/panel/payments/${paymentId}/emails/${rows[0].public_id}/resend`,
      {},
      { headers: POLISH },
    );
    assert.equal(resend.status, 409);
    assert.ok(
      pageText(await resend.text()).includes(
        "Nie wysłano: ten proces produkcyjny nie ma ustawionej zmiennej SMTP_URL",
      ),
    );
    assert.deepEqual(await englishOn(agent, [`/panel/payments/${paymentId}`]), []);
  } finally {
    await app.close();
  }
});

Deno.test("[panel language] why a customer e-mail was not sent is said in Polish where it is known", () => {
  const pl = translator("pl");
  const cases: [string, string][] = [
    [
      "The server answered: 550 5.1.1 <jan@example.com>: Recipient address rejected",
      "Odpowiedź serwera: 550 5.1.1 <jan@example.com>: Recipient address rejected",
    ],
    ["No attempts left.", "Wykorzystano wszystkie próby."],
    [
      "No result was recorded: the process sending this e-mail stopped during the attempt. " +
      "It is sent again with the same Message-ID.",
      "Nie zapisano wyniku: proces wysyłający ten e-mail zatrzymał się w trakcie próby. " +
      "E-mail zostanie wysłany ponownie z tym samym Message-ID.",
    ],
    [
      "The e-mail 'em_abc' is still being sent (attempt 2); wait for it.",
      "E-mail 'em_abc' jest jeszcze wysyłany (próba 2); poczekaj na jej wynik.",
    ],
    // What went wrong reaching the server stays as the mail library said it.
    [
      "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:25",
      "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:25",
    ],
  ];
  for (const [english, polish] of cases) assert.equal(translateError(pl, english), polish);
});

Deno.test("[panel language] a page refused for the role says so in Polish, roles included", async () => {
  const { t: app, agent } = await signedInApp({ role: "MEMBER" });
  try {
    const response = await agent.get("/panel/developers/api-keys", POLISH);
    assert.equal(response.status, 403);
    assert.match(
      pageText(await response.text()),
      /Nie możesz tego zrobić Ta część panelu jest przeznaczona dla: właścicieli i administratorów; Twoja rola w Acme to członek zespołu\. Jeśli jej potrzebujesz, poproś właściciela\./,
    );
  } finally {
    await app.close();
  }
});

/** The English catalogue's sentences found in a Polish page (its islands' props included). */
function englishSentencesIn(html: string): string[] {
  const decoded = html.replace(/&quot;/g, '"').replace(/&#39;/g, "'");
  const text = pageText(decoded);
  return englishFragments().filter((fragment) =>
    text.includes(fragment) || decoded.includes(fragment)
  );
}

/** The public id of the (one) attempt of a payment: the order id PayU shows in its statement. */
async function orderIdOf(app: TestApp, paymentId: string): Promise<string> {
  const row = await app.store.db.selectFrom("payment_attempts")
    .innerJoin("payments", "payments.id", "payment_attempts.payment_id")
    .where("payments.public_id", "=", paymentId)
    .select("payment_attempts.public_id").executeTakeFirstOrThrow();
  return row.public_id;
}

/** Uploads `statement` as the reconciliation form does, asking for Polish. */
async function uploadStatement(app: TestApp, agent: PanelAgent, statement: string) {
  const form = new FormData();
  form.append("_csrf", agent.csrf);
  form.append("statement", new File([statement], "statement.csv", { type: "text/csv" }));
  return await app.app.request("/panel/payments/reconciliations", {
    method: "POST",
    headers: {
      ...POLISH,
      accept: "text/html",
      "sec-fetch-site": "same-origin",
      cookie: [...agent.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    },
    body: form,
  });
}

Deno.test("[panel language] Export and Reconciliation in Polish: forms, results, every problem and the errors", async () => {
  const { t: app, agent } = await signedInApp();
  try {
    const paid = await paidPayment(app, { name: "Kawa", amount: 1250 });
    const missing = await paidPayment(app, { name: "Herbata", amount: 900 });
    const order = await orderIdOf(app, paid.paymentId);
    const statement = payuStatement([
      // The amount differs from the payment's; then the same order paid a second time.
      { date: "2026-11-21", transactionId: "1", amount: "99,00", type: "t", orderId: order },
      { date: "2026-11-21", transactionId: "2", amount: "12,50", type: "t", orderId: order },
      { date: "2026-11-21", transactionId: "3", amount: "8,00", type: "t", orderId: "ORDER-X" },
      { date: "2026-11-21", transactionId: "4", amount: "5,00", type: "t" },
      { date: "2026-11-21", transactionId: "5", amount: "-1,00", type: "c", orderId: order },
      { date: "2026-11-21", amount: "-0,31", type: "r" },
    ]);
    assert.equal((await uploadStatement(app, agent, statement)).status, 303);

    const exportPage = await (await agent.get("/panel/payments/export", POLISH)).text();
    assert.deepEqual(englishSentencesIn(exportPage), []);
    assert.match(
      pageText(exportPage),
      /Eksport · Acme .* Eksport Dni liczone są według czasu polskiego .* Płatności Od \(pierwszy dzień\) Do \(ostatni dzień\) Status Dowolny Oczekuje .* Pobierz płatności Zwroty .* Wykonany Nieudany .* Pobierz zwroty/,
    );

    const html =
      await (await agent.get("/panel/payments/reconciliations?notice=reconciled", POLISH))
        .text();
    assert.deepEqual(englishSentencesIn(html), []);
    const text = pageText(html);
    assert.match(text, /Uzgodnienie z zestawieniem PayU/);
    assert.match(text, /Okres Operacje Zgodne Prowizje Wypłaty Rozbieżności/);
    assert.match(text, /0,31 zł — 6 rozbieżności/);
    for (
      const sentence of [
        `Wiersz 2, Niezgodna kwota : PayU pobrało 99,00 zł za płatność ${paid.paymentId}, której kwota wynosiła 12,50 zł.`,
        `Wiersz 3, Niezgodna kwota : PayU pobrało 12,50 zł za płatność ${paid.paymentId}, która w Paystead ma status SUCCEEDED i została już dopasowana.`,
        "Wiersz 4, Nieznane zamówienie : Żadna płatność tej organizacji nie ma identyfikatora zamówienia „ORDER-X”.",
        "Wiersz 5, Nieznane zamówienie : PayU nie podaje tutaj identyfikatora zamówienia",
        `Wiersz 6, Niezgodna kwota : PayU zwróciło 1,00 zł z płatności ${paid.paymentId};`,
        `Brak w zestawieniu : Płatność ${missing.paymentId} (9,00 zł) została opłacona w okresie objętym zestawieniem`,
      ]
    ) {
      assert.ok(text.includes(sentence.replace(/\u00a0/g, " ")), sentence);
    }
    // No problem is left in the API's English words.
    const api = await (await app.request("GET", "/api/v1/reconciliations")).json();
    for (const problem of api.data[0].problems) {
      assert.equal(text.includes(problem.message), false, problem.message);
    }

    const malformed = await uploadStatement(app, agent, "Data;Kwota\n2026-11-21;1\n");
    assert.equal(malformed.status, 400);
    const refused = await malformed.text();
    assert.deepEqual(englishSentencesIn(refused), []);
    assert.match(pageText(refused), /Wiersz 1: to nie jest zestawienie PayU — brakuje kolumn: /);
    const bad = await uploadStatement(
      app,
      agent,
      payuStatement([{ date: "2026-11-21", amount: "1,005", type: "t", orderId: order }]),
    );
    assert.match(
      pageText(await bad.text()),
      /Wiersz 2: kwota „1,005” nie jest kwotą w walucie PLN\./,
    );
    const range = await agent.get(
      "/panel/payments/export/refunds?from=2026-11-30&to=2026-11-01",
      POLISH,
    );
    assert.equal(range.status, 400);
    assert.match(
      pageText(await range.text()),
      /Data „Do” nie może być wcześniejsza niż data „Od”\./,
    );
  } finally {
    await app.close();
  }
});

Deno.test("[panel language] an owner's off-site backups card and its failure in Polish", async () => {
  const backupDir = await Deno.makeTempDir({ prefix: "paystead-language-" });
  const { t: app, agent } = await signedInApp({
    env: {
      BACKUP_DIR: backupDir,
      BACKUP_INTERVAL: "6h",
      BACKUP_S3_URL: "s3://paystead-backups/paystead",
      BACKUP_PASSPHRASE: "language-test-passphrase-0123",
      BACKUP_S3_ENDPOINT: "http://127.0.0.1:9",
      BACKUP_S3_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "KEY",
      AWS_SECRET_ACCESS_KEY: "SECRET",
    },
  });
  try {
    const at = Date.parse("2026-11-21T10:00:00.000Z");
    const status = app.services.backups;
    status.offsiteCopied("environment", {
      at,
      sizeBytes: 5_123_456,
      url: "s3://paystead-backups/paystead/sandbox-20261121T100000Z.db.age",
    });
    status.offsiteFailure = { at, since: at, message: "connect ECONNREFUSED 127.0.0.1:9" };
    const html = await (await agent.get("/panel", POLISH)).text();
    assert.deepEqual(englishSentencesIn(html), []);
    const text = pageText(html);
    assert.match(
      text,
      /Ostatnia zaplanowana kopia zapasowa nie powiodła się 2026-11-21T10:00:00\.000Z: kopiowanie poza serwer nie powiodło się \(connect ECONNREFUSED 127\.0\.0\.1:9\)/,
    );
    assert.match(
      text,
      /Kopie zapasowe poza serwerem Kopiowanie kopii zapasowych poza serwer się nie udaje Błędy od 2026-11-21T10:00:00\.000Z; .* Ostatnie kopie poza serwerem Baza danych Skopiowano Rozmiar \(po zaszyfrowaniu\) Polecenie przywracania baza sandboxa 2026-11-21T10:00:00\.000Z 5,1 MB restore --from s3:/,
    );
    status.offsite.clear();
    status.offsiteFailure = null;
    const empty = pageText(await (await agent.get("/panel", POLISH)).text());
    assert.match(empty, /W s3:\/\/paystead-backups\/paystead\/ nie ma jeszcze żadnej kopii\./);
  } finally {
    await app.close();
    await Deno.remove(backupDir, { recursive: true });
  }
});

Deno.test("[panel language] production on PayU's sandbox says so in Polish", async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{}, /Płatności testowe PAYU_API_URL wskazuje sandbox PayU \(secure\.snd\.payu\.com\)/],
    [
      { PAYU_API_URL: "https://secure.payu.com" },
      /Płatności testowe PAYU_POS_ID 300746 to publiczny punkt płatności \(POS\) sandboxa PayU/,
    ],
  ];
  for (const [env, strip] of cases) {
    const { t: app, agent } = await signedInApp({ environment: "production", env });
    try {
      const html = await (await agent.get("/panel/payments", POLISH)).text();
      assert.deepEqual(englishSentencesIn(html), []);
      assert.match(pageText(html), strip);
    } finally {
      await app.close();
    }
  }
});

Deno.test("[panel language] business details and the sandbox mailbox speak Polish", async (t) => {
  const { t: app, agent } = await signedInApp({ role: "OWNER" });
  try {
    const member = await addUser(app, { email: "grace@acme.test", role: "MEMBER" });
    const memberAgent = new PanelAgent(app);
    await memberAgent.signIn(member.email, member.password);

    await t.step("a member reads 'not set yet' in Polish", async () => {
      assert.deepEqual(await englishOn(memberAgent, ["/panel/team"]), []);
      const text = pageText(await (await memberAgent.get("/panel/team", POLISH)).text());
      assert.ok(text.includes("Dane firmy"), text);
      assert.ok(text.includes("Dane nie zostały jeszcze uzupełnione."), text);
    });

    await t.step("the form's validation errors in Polish", async () => {
      const form = {
        legalName: "Kawiarnia Ziarno sp. z o.o.",
        "address.line1": "ul. Mokotowska 12",
        "address.line2": "",
        "address.postalCode": "00-561",
        "address.city": "Warszawa",
        "address.country": "PL",
        taxId: "",
        contactEmail: "kontakt@ziarno.example.pl",
        contactPhone: "",
        defaultLanguage: "pl",
      };
      const cases: [Record<string, string>, string][] = [
        [{ taxId: "526-025-02-75" }, "Nieprawidłowy NIP: wpisz 10 cyfr z poprawną cyfrą kontrolną"],
        [{ legalName: " " }, "Wpisz nazwę firmy."],
        [{ "address.city": "" }, "Wpisz miejscowość."],
        [{ "address.country": "Polska" }, "Wpisz dwuliterowy kod kraju (ISO 3166-1), np. PL."],
        [{ contactEmail: "kontakt" }, "Wpisz poprawny adres e-mail, np. kontakt@firma.pl."],
        [{ contactPhone: "zadzwoń" }, "Wpisz poprawny numer telefonu, np. +48 22 123 45 67."],
        [{ legalName: "x".repeat(201) }, "To pole może mieć najwyżej 200 znaków."],
      ];
      for (const [change, message] of cases) {
        const response = await agent.post("/panel/team/business-details", { ...form, ...change }, {
          headers: POLISH,
        });
        assert.equal(response.status, 400, message);
        const text = pageText(await response.text());
        assert.ok(text.includes(message), `${message}: ${text}`);
      }
      assert.equal((await app.request("GET", "/api/v1/business-details")).status, 404);
    });

    await app.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
    const { paymentId } = await paidPayment(app, {}, { customer: { email: "jan@example.com" } });
    await app.services.scheduler.runDue();
    await app.emails.idle();
    const mailbox = await (await app.request("GET", "/api/v1/sandbox/emails")).json();
    const emailId: string = mailbox.data[0].emailId;

    await t.step("saved details: the owner's form and the member's summary", async () => {
      const saved = pageText(
        await (await agent.get("/panel/team?notice=business-saved", POLISH)).text(),
      );
      assert.ok(saved.includes("Dane firmy zapisane."), saved);
      assert.ok(saved.includes("Zapisz dane firmy"), saved);
      const summary = pageText(await (await memberAgent.get("/panel/team", POLISH)).text());
      assert.ok(
        summary.includes(
          "Nazwa firmy Kawiarnia Ziarno sp. z o.o. Adres ul. Mokotowska 12, 00-561 Warszawa, PL " +
            "NIP 5260250274 Kontakt kontakt@ziarno.example.pl, +48 22 123 45 67 " +
            "Domyślny język klientów polski Prośby o fakturę Przyjmowane",
        ),
        summary,
      );
      assert.deepEqual(await englishOn(agent, ["/panel/team"]), []);
      assert.deepEqual(await englishOn(memberAgent, ["/panel/team"]), []);
    });

    await t.step("the mailbox with one e-mail, and that e-mail's page", async () => {
      const list = pageText(await (await agent.get("/panel/developers/mailbox", POLISH)).text());
      assert.ok(
        list.includes(
          "Temat Do Język Otrzymano Potwierdzenie płatności – Kawiarnia Ziarno sp. z o.o. " +
            "Potwierdzenie płatności jan@example.com pl",
        ),
        list,
      );
      // Too short for the catalogue check: the title, the navigation and the back link.
      assert.equal(list.includes("Sandbox mailbox"), false, list);
      assert.ok(list.includes("Kopiowanie konfiguracji Skrzynka sandboxa Szybki start"), list);
      const page = pageText(
        await (await agent.get(`/panel/developers/mailbox/${emailId}`, POLISH)).text(),
      );
      assert.ok(page.includes("Nagłówki Od Paystead <no-reply@sandbox.test> Do jan@example.com"));
      assert.ok(page.includes(`Płatność ${paymentId}`), page);
      assert.ok(page.includes("Tak widzi go klient"), page);
      assert.ok(page.includes("Wersja tekstowa"), page);
      assert.deepEqual(
        await englishOn(agent, [
          "/panel/developers/mailbox",
          `/panel/developers/mailbox/${emailId}`,
          "/panel/developers/mailbox/em_missing",
        ]),
        [],
      );
      const missing = await agent.get("/panel/developers/mailbox/em_missing", POLISH);
      assert.equal(missing.status, 404);
      assert.ok(
        pageText(await missing.text()).includes(
          "Nie znaleziono e-maila o identyfikatorze „em_missing”.",
        ),
      );
    });
  } finally {
    await app.close();
  }
});
