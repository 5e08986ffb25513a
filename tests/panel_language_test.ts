import assert from "node:assert/strict";
import { findUserByEmail } from "../db/users.ts";
import { CATALOGUES } from "../lib/i18n/mod.ts";
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
      // The API reference is left out: its operations and tags are the OpenAPI document's words.
      "/panel/no-such-page",
    ];
    const fragments = englishFragments();
    assert.ok(fragments.length > 300, `${fragments.length} fragments`);
    const found: string[] = [];
    for (const path of pages) {
      // The islands' props carry their words too: decode them into the text that is checked.
      const html = (await (await agent.get(path, POLISH)).text()).replace(/&quot;/g, '"');
      const text = pageText(html);
      for (const fragment of fragments) {
        if (text.includes(fragment) || html.includes(fragment)) found.push(`${path}: ${fragment}`);
      }
    }
    assert.deepEqual(found, []);
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
