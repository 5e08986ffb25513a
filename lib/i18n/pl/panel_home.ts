import type { panelHome as english } from "../en/panel_home.ts";

/** Strona główna panelu i lista kroków przed uruchomieniem produkcji. */
export const panelHome: { readonly [K in keyof typeof english]: string } = {
  "panel.home.welcome": "Hasło zostało ustawione. Witamy w Paystead.",
  "panel.home.joined": "Dołączono do organizacji. Witamy.",
  "panel.chart.title":
    "Wartość płatności w {currency} i odsetek udanych płatności dziennie, {days, plural, one {ostatni # dzień} other {ostatnie # dni}}",
  "panel.chart.noDecided": "brak rozstrzygniętych płatności",
  "panel.chart.succeeded": "{percent}% udanych",
  "panel.chart.volumeKey": "Wartość ({currency}, udane)",
  "panel.chart.rateKey": "Odsetek udanych",
  "panel.chart.table": "Płatności dziennie",
  "panel.chart.day": "Dzień",
  "panel.chart.volume": "Wartość",
  "panel.chart.succeededCol": "Udane",
  "panel.chart.failedCol": "Nieudane",
  "panel.home.noPayments": "Brak płatności w ostatnich {days} dniach",
  "panel.home.startText": "Utwórz ofertę i udostępnij jej kod QR lub link do płatności.",
  "panel.home.startTextQuickstart":
    "Utwórz ofertę i udostępnij jej kod QR lub link do płatności albo uruchom Szybki start, aby w minutę przyjąć płatność testową.",
  "panel.home.createOffer": "Utwórz ofertę",
  "panel.home.openQuickstart": "Otwórz Szybki start",
  "panel.home.currency": "Waluta",
  "panel.home.volume": "Wartość",
  "panel.home.volumeHint": "udane płatności",
  "panel.home.succeeded": "Udane płatności",
  "panel.home.rate": "Skuteczność",
  "panel.home.rateHint": "spośród płatności udanych i nieudanych",
  "panel.home.failed": "Nieudane płatności",
  "panel.home.chart": "Wartość i skuteczność płatności",
  "panel.home.latest": "Ostatnie płatności",
  "panel.home.allPayments": "Wszystkie płatności →",
  "panel.home.greeting": "Dzień dobry, {name}",
  "panel.home.in.sandbox": "{org} w sandboxie, ostatnie {days} dni (UTC).",
  "panel.home.in.production": "{org} na produkcji, ostatnie {days} dni (UTC).",
  "panel.goLive.title": "Uruchomienie produkcji",
  "panel.goLive.paid": "Płatności już wpływają; dokończ te kroki, aby żadna nie umknęła uwadze:",
  "panel.goLive.empty":
    "Brak płatności w ostatnich {days} dniach. Zanim klienci zaczną tu płacić, sprawdź te kroki:",
  "panel.goLive.step": "Krok {number}:",
  "panel.goLive.stepDone": "Krok {number} (wykonany):",
  "panel.goLive.provider": "Dostawca płatności",
  "panel.goLive.providerNever": "Brak udanego wywołania od uruchomienia tego procesu.",
  "panel.goLive.providerLast": "Ostatnie udane wywołanie: {at}.",
  "panel.goLive.providerLink": "Stan dostawcy",
  "panel.goLive.test": "Sprawdź połączenie z {provider}",
  "panel.goLive.testOk": "{provider} odpowiedziało",
  "panel.goLive.testOkText":
    "{url} wydało token OAuth ważny przez {seconds} s: dane uwierzytelniające POS są prawidłowe.",
  "panel.goLive.testFailed": "{provider} nie wydało tokenu",
  "panel.goLive.key": "Produkcyjny klucz API",
  "panel.goLive.keyNone":
    "Brak produkcyjnego klucza API: Twój serwer potrzebuje go do tworzenia płatności.",
  "panel.goLive.keys":
    "{count, plural, one {# klucz produkcyjny jest} few {# klucze produkcyjne są} many {# kluczy produkcyjnych jest} other {# klucza produkcyjnego jest}} w użyciu.",
  "panel.goLive.keyLink": "Klucze API",
  "panel.goLive.webhook": "Endpoint webhooków",
  "panel.goLive.webhookNone":
    "Brak endpointu webhooków: dodaj go, aby Twój serwer dowiadywał się o udanych płatnościach.",
  "panel.goLive.webhooks":
    "{count, plural, one {# endpoint otrzymuje} few {# endpointy otrzymują} many {# endpointów otrzymuje} other {# endpointu otrzymuje}} zdarzenia.",
  "panel.goLive.webhookLink": "Webhooki",
  "panel.goLive.business": "Dane firmy",
  "panel.goLive.businessSet":
    "Klienci widzą nazwę firmy, adres i dane kontaktowe na stronie płatności i w e-mailach.",
  "panel.goLive.businessNone":
    "Brak danych: klient musi wiedzieć, komu płaci (nazwa firmy, adres, NIP, kontakt) – na stronie płatności i w e-mailach.",
  "panel.goLive.smtpOn":
    "E-maile do klientów (potwierdzenia płatności, informacje o zwrotach) są wysyłane przez SMTP_URL.",
  "panel.goLive.smtpOff":
    "Ten proces produkcyjny nie ma ustawionego SMTP_URL, więc nie wysyła e-maili: klienci nie dostaną potwierdzenia płatności. Ustaw SMTP_URL i MAIL_FROM, a potem uruchom go ponownie.",
  "panel.goLive.createOffer": "Utwórz ofertę",
};
