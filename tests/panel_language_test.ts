import assert from "node:assert/strict";
import { findUserByEmail } from "../db/users.ts";
import { CATALOGUES } from "../lib/i18n/mod.ts";
import { paidPayment } from "./support/billing_helpers.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { createTestOffer } from "./support/helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";

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
