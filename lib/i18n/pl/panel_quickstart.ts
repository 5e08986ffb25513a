import type {
  panelQuickstart as english,
  panelQuickstartPage as englishPage,
} from "../en/panel_quickstart.ts";

/** Szybki start. `[nazwa]` to fragment kodu albo link, który wstawia wyspa. */
export const panelQuickstart: { readonly [K in keyof typeof english]: string } = {
  "panel.qs.step": "Krok [number]:",
  "panel.qs.stepDone": "Krok [number] (wykonany):",
  "panel.qs.running": "Trwa…",
  "panel.qs.runAgain": "Uruchom ponownie",
  "panel.qs.run": "Uruchom",
  "panel.qs.response": "Odpowiedź · [status]",
  "panel.qs.sample": "Przykładowa odpowiedź · [status]",
  "panel.qs.requestBody": "Treść żądania",
  "panel.qs.copy": "Kopiuj",
  "panel.qs.copied": "Skopiowano",
  "panel.qs.select": "Naciśnij Ctrl+C",
  "panel.qs.shell": "Powłoka",
  "panel.qs.noKeyYet":
    "Najpierw ustaw PAYSTEAD_KEY na klucz sandboxa: uruchom krok 1 albo użyj zapisanego klucza.",
  "panel.qs.needOffer": "Najpierw utwórz ofertę w kroku 2.",
  "panel.qs.key.title": "Pobierz klucz API sandboxa",
  "panel.qs.key.run": "Utwórz klucz",
  "panel.qs.key.text":
    "Każde wywołanie API zawiera tajny klucz w nagłówku [auth]. Klucze sandboxa zaczynają się od [prefix] i działają tylko na hoście sandboxa.",
  "panel.qs.key.once":
    "Twój nowy klucz, widoczny tylko teraz. Zapisz go w menedżerze sekretów lub w pliku [env].",
  "panel.qs.key.ref": "Dokumentacja API: lista ofert",
  "panel.qs.key.manage": "Zarządzaj kluczami API",
  "panel.qs.offer.title": "Utwórz ofertę",
  "panel.qs.offer.text":
    "Oferta to to, za co płacą klienci; identyfikuje ją [qrId]. Kwoty podaje się w jednostkach podrzędnych: [amount] to 12,50.",
  "panel.qs.offer.ref": "Dokumentacja API: utworzenie oferty",
  "panel.qs.webhook.title": "Odbieraj webhooki",
  "panel.qs.webhook.setUp": "Skonfiguruj",
  "panel.qs.webhook.check": "Sprawdź",
  "panel.qs.webhook.text":
    "Paystead informuje Twój serwer o zdarzeniach podpisanymi żądaniami POST. Publiczny adres URL nie jest jeszcze potrzebny: sandbox ma wbudowaną skrzynkę, która odbiera je tak jak Twój serwer, sprawdza nagłówek [signature] i pokazuje, co dotarło. Później zarejestruj własny adres w sekcji [webhooks].",
  "panel.qs.webhook.webhooks": "Webhooki",
  "panel.qs.webhook.ref": "Dokumentacja API: utworzenie endpointu webhooków",
  "panel.qs.webhook.log": "Sekret podpisu i log doręczeń",
  "panel.qs.payment.title": "Przyjmij płatność",
  "panel.qs.payment.text":
    "Link do strony płatności: przekieruj klienta na [paymentUrl] (lub pokaż kod QR oferty), gdzie wpisze 6-cyfrowy kod z aplikacji bankowej.",
  "panel.qs.payment.ref": "Dokumentacja API: utworzenie linku do płatności",
  "panel.qs.payment.open": "Otwórz stronę płatności",
  "panel.qs.checkout.title": "Osadź sesję checkoutu",
  "panel.qs.checkout.text":
    "Checkout na Twojej stronie: Twój serwer tworzy sesję, a strona ładuje jej [embedUrl] za pomocą [embedJs]. [embedLink] musi mieć origin z Twojej [allowlist]. Tutaj jest to strona podglądu w panelu, więc zobaczysz osadzoną sesję: ten krok dodaje [origin] do listy (w terminalu robi to PUT nad curlem sesji), a curl działa tak, jak pokazano. Origin Twojego sklepu dodasz tam później.",
  "panel.qs.checkout.allowlist": "listy dozwolonych stron",
  "panel.qs.checkout.ref": "Dokumentacja API: utworzenie sesji checkoutu",
  "panel.qs.checkout.see": "Zobacz osadzoną sesję",
  "panel.qs.complete.title": "Opłać ją kodem testowym [code]",
  "panel.qs.complete.blocked": "Najpierw utwórz sesję checkoutu w kroku 5.",
  "panel.qs.complete.text":
    "W sandboxie kody zaczynające się od [succeeds] kończą się powodzeniem, a [declined] jest odrzucany. Operacja complete robi to samo co klient w checkoutcie: jedną próbę płatności z kodem.",
  "panel.qs.complete.ref": "Dokumentacja API: opłacenie sesji checkoutu kodem testowym",
  "panel.qs.complete.payment": "Płatność w panelu",
  "panel.qs.watch.title": "Zobacz, jak dociera webhook",
  "panel.qs.watch.watching": "Obserwuję…",
  "panel.qs.watch.watch": "Obserwuj",
  "panel.qs.watch.blocked": "Najpierw skonfiguruj odbiorcę w kroku 3.",
  "panel.qs.watch.text":
    "Płatność sesji i jej zakończenie ([succeeded], [completed], ...) są doręczane do skrzynki, a każda próba jest zapisywana z kodem odpowiedzi i czasem. Twój serwer potwierdziłby zamówienie po zdarzeniu [completed].",
  "panel.qs.watch.nothing": "Jeszcze niczego nie obserwowano.",
  "panel.qs.watch.log": "Log doręczeń",
  "panel.qs.watch.noDeliveries": "Brak doręczeń.",
  "panel.qs.watch.inbox": "Odebrane przez skrzynkę",
  "panel.qs.watch.nothingReceived": "Jeszcze nic nie dotarło.",
  "panel.qs.watch.notEvent": "(to nie jest zdarzenie)",
  "panel.qs.watch.verified": "podpis zweryfikowany",
  "panel.qs.watch.notVerified": "niezweryfikowany",
  "panel.qs.watch.done":
    "checkout.session.completed dotarło do skrzynki z prawidłowym podpisem. To cały cykl: klucz, oferta, płatność, checkout, webhook. Teraz skieruj webhook na własny serwer i tam weryfikuj podpisy.",
  "panel.qs.watch.ref": "Dokumentacja API: lista doręczeń zdarzenia",
  "panel.qs.watch.fullLog": "Pełny log doręczeń",
  "panel.qs.status.pending": "oczekuje",
  "panel.qs.status.succeeded": "doręczono",
  "panel.qs.status.failed": "nieudane",
  "panel.qs.status.canceled": "anulowane",
};

/** Strona Szybkiego startu wokół wyspy. */
export const panelQuickstartPage: { readonly [K in keyof typeof englishPage]: string } = {
  "panel.qs.page.title": "Szybki start",
  "panel.qs.page.description":
    "Przeprowadź płatność od początku do końca w sandboxie organizacji {org}. Każdy krok działa naprawdę; curl obok robi to samo z Twojego terminala, wywołując {baseUrl}. Wklejone po kolei w jednej powłoce polecenia zapisują identyfikatory potrzebne w kolejnych krokach w zmiennych powłoki (za pomocą jq).",
  "panel.qs.page.elsewhere":
    "Szybki start przyjmuje płatności testowe, dlatego działa w sandboxie, gdzie prawdziwe pieniądze nie są przekazywane.",
  "panel.qs.page.open": "Otwórz go w sandboxie",
};
