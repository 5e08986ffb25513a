import assert from "node:assert/strict";
import { CATALOGUES, chooseLanguage, translator } from "../lib/i18n/mod.ts";
import { customer as enCustomer } from "../lib/i18n/en/customer.ts";
import { customer as plCustomer } from "../lib/i18n/pl/customer.ts";
import { FAILURE_CODES } from "../lib/providers/mod.ts";
import { englishIn, englishOnlyPieces, literalsOf } from "./support/catalogue_text.ts";

/** Keys whose Polish is the English on purpose; none today (even "BLIK" sits in sentences). */
const SAME_IN_BOTH: string[] = [];

function argumentsOf(message: string): string[] {
  return [...message.matchAll(/\{\s*(\w+)/g)].map((match) => match[1]).sort();
}

Deno.test("[i18n] every key exists in both languages, with the same placeholders", () => {
  assert.deepEqual(Object.keys(CATALOGUES.pl).sort(), Object.keys(CATALOGUES.en).sort());
  assert.deepEqual(Object.keys(plCustomer).sort(), Object.keys(enCustomer).sort());
  for (const [key, english] of Object.entries(enCustomer)) {
    const polish = plCustomer[key as keyof typeof plCustomer];
    assert.deepEqual(argumentsOf(polish), argumentsOf(english), key);
    // Both parse as ICU messages in their own locale.
    literalsOf(polish, "pl");
    literalsOf(english, "en");
  }
});

Deno.test("[i18n] no Polish message is left in English", () => {
  const same = Object.entries(enCustomer).filter(([key, english]) =>
    plCustomer[key as keyof typeof plCustomer] === english
  ).map(([key]) => key);
  assert.deepEqual(same, SAME_IN_BOTH);
  // The check the page tests rely on finds English in a page, and only English.
  assert.deepEqual(englishIn("<p>Payment failed</p>"), ["Payment", "Payment failed"]);
  assert.deepEqual(englishIn(`<p>${plCustomer["failed.title"]}</p>`), []);
  assert.ok(englishOnlyPieces().includes("Nothing was charged."));
});

Deno.test("[i18n] every failure code tells the customer what to do next, in both languages", () => {
  for (const language of ["pl", "en"] as const) {
    const { t } = translator(language);
    for (const code of FAILURE_CODES) {
      const sentence = t(`failed.${code}`);
      assert.match(
        sentence,
        language === "pl"
          ? /(wygeneruj nowy|nowym kodem|skontaktuj się)/i
          : /(generate a new|new code|contact)/i,
        `${language} ${code}: ${sentence}`,
      );
    }
  }
});

Deno.test("[i18n] Polish plurals, money and dates as Poles write them", () => {
  const pl = translator("pl");
  const minutes = (count: number) => /za (.+)\.$/.exec(pl.t("locked.text", { minutes: count }))![1];
  assert.deepEqual([1, 2, 4, 5, 12, 15, 22, 25].map(minutes), [
    "1 minutę",
    "2 minuty",
    "4 minuty",
    "5 minut",
    "12 minut",
    "15 minut",
    "22 minuty",
    "25 minut",
  ]);
  assert.equal(translator("en").t("locked.text", { minutes: 1 }).endsWith("in 1 minute."), true);
  assert.equal(pl.money(1250, "PLN"), "12,50\u00a0zł");
  assert.equal(pl.money(123456, "PLN"), "1234,56\u00a0zł");
  assert.equal(pl.money(12345678, "PLN"), "123\u00a0456,78\u00a0zł");
  assert.equal(translator("en").money(1250, "PLN"), "PLN\u00a012.50");
  assert.equal(pl.dateTime(Date.UTC(2026, 10, 21, 10, 5)), "21 listopada 2026 11:05");
});

Deno.test("[i18n] the language: ?lang, then locale, then Accept-Language, then the organisation", () => {
  const cases: [Parameters<typeof chooseLanguage>[0], string][] = [
    [{ query: "en", locale: "pl", acceptLanguage: "pl" }, "en"],
    [{ query: "de", locale: "pl", acceptLanguage: "en" }, "pl"],
    [{ locale: "en", acceptLanguage: "pl-PL,pl;q=0.9" }, "en"],
    [{ locale: null, acceptLanguage: "de-DE,en;q=0.8,pl;q=0.5", organisationDefault: "pl" }, "en"],
    [{ acceptLanguage: "de-DE,fr;q=0.9", organisationDefault: "en" }, "en"],
    [{ acceptLanguage: "pl;q=0,en;q=0.1" }, "en"],
    [{}, "pl"],
  ];
  for (const [signals, expected] of cases) {
    assert.equal(chooseLanguage(signals), expected, JSON.stringify(signals));
  }
});

Deno.test("[i18n] embed.js carries the catalogue's words for its onError message", async () => {
  const script = await Deno.readTextFile(new URL("../static/embed.js", import.meta.url));
  const block = /const NOT_READY = \{\s*pl: "([^"]+)",\s*en: "([^"]+)",\s*\};/.exec(script);
  assert.ok(block, "embed.js names its messages in NOT_READY");
  assert.deepEqual([block[1], block[2]], [
    translator("pl").t("embed.notReady"),
    translator("en").t("embed.notReady"),
  ]);
});

Deno.test("[i18n] the island bundle carries no catalogue: islands get their words as props", async () => {
  const bundle = await Deno.readTextFile(new URL("../static/islands.js", import.meta.url));
  const pieces = [...Object.values(enCustomer), ...Object.values(plCustomer)]
    .flatMap((message) => literalsOf(message, "en"))
    .filter((piece) => piece.length >= 12);
  assert.ok(pieces.length > 50);
  assert.deepEqual(pieces.filter((piece) => bundle.includes(piece)), []);
});
