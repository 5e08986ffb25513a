import type { panelDevelopers as english } from "../en/panel_developers.ts";

/** Dla programistów: przegląd, strona wyższego planu i stan dostawcy płatności. */
export const panelDevelopers: { readonly [K in keyof typeof english]: string } = {
  "panel.dev.title": "Dla programistów",
  "panel.dev.upgrade.eyebrow": "Plan BASIC lub wyższy",
  "panel.dev.upgrade.title": "Połącz swój sklep z Paystead",
  "panel.dev.upgrade.lead":
    "{org} korzysta z planu FREE: oferty, kody QR i płatności w panelu. Z planem BASIC lub wyższym otrzymasz także:",
  "panel.dev.upgrade.keys": "Klucze API dla Twojego serwera, w sandboxie i na produkcji",
  "panel.dev.upgrade.webhooks":
    "Podpisane webhooki z logiem doręczeń, ponownym wysyłaniem i zdarzeniami testowymi",
  "panel.dev.upgrade.checkout": "Checkout osadzony na Twoich stronach, z podglądem na żywo",
  "panel.dev.upgrade.quickstart": "Interaktywny Szybki start",
  "panel.dev.upgrade.quickstartOn": "Interaktywny Szybki start, w planie {plan}",
  "panel.dev.upgrade.reference": "{reference} jest dostępna w każdym planie.",
  "panel.dev.upgrade.referenceLink": "Dokumentacja API",
  "panel.dev.upgrade.free":
    "W planie FREE żaden webhook nie jest doręczany, także do endpointów skonfigurowanych przed obniżeniem planu, a oczekujące doręczenia są anulowane. Zdarzenia są nadal rejestrowane: po zmianie planu odzyskasz doręczenia endpointu z tego okresu wywołaniem {call}.",
  "panel.dev.upgrade.plans":
    "Plany ustawia administrator tej instalacji Paystead: {command}. Zobacz {team}.",
  "panel.dev.upgrade.team": "Zespół i plan",
  "panel.dev.description.sandbox":
    "Wszystko, czego potrzebuje Twoja integracja w sandboxie. Host API: {url}.",
  "panel.dev.description.production":
    "Wszystko, czego potrzebuje Twoja integracja na produkcji. Host API: {url}.",
  "panel.dev.tile.quickstart": "Szybki start",
  "panel.dev.tile.quickstartText":
    "Przeprowadź płatność testową od początku do końca w sandboxie, krok po kroku, z poleceniem curl dla każdego wywołania.",
  "panel.dev.tile.keys": "Klucze API",
  "panel.dev.tile.keysText":
    "Twórz, wymieniaj i unieważniaj tajne klucze, które Twój serwer wysyła w nagłówku Authorization: Bearer.",
  "panel.dev.tile.webhooks": "Webhooki",
  "panel.dev.tile.webhooksText":
    "Endpointy, sekrety podpisu i każda próba doręczenia, z ponownym wysyłaniem i zdarzeniami testowymi.",
  "panel.dev.tile.checkout": "Sesje checkoutu",
  "panel.dev.tile.checkoutText":
    "Które z Twoich stron mogą osadzać checkout, ostatnie sesje i podgląd na żywo.",
  "panel.dev.tile.mailbox": "Skrzynka sandboxa",
  "panel.dev.tile.mailboxText":
    "E-maile, które dostaliby klienci (potwierdzenia, informacje o zwrotach) – bez SMTP_URL trafiają tutaj zamiast do klientów.",
  "panel.dev.tile.reference": "Dokumentacja API",
  "panel.dev.tile.referenceText":
    "Każda operacja z parametrami i odpowiedziami, na podstawie dokumentu OpenAPI tego serwera.",
  "panel.dev.goingLive": "Uruchomienie produkcji",
  "panel.dev.production": "Produkcja",
  "panel.dev.separate":
    "Sandbox i produkcja są rozdzielone: każde środowisko ma własne klucze, oferty, webhooki i listę dozwolonych stron checkoutu, a nic nie jest między nimi kopiowane. Gdy integracja działa w sandboxie, utwórz klucz produkcyjny i endpoint webhooków w panelu produkcyjnym i skieruj swój serwer na host produkcyjny.",
  "panel.provider.title": "Dostawca płatności",
  "panel.provider.provider": "Dostawca",
  "panel.provider.account": "{provider}, POS {pos}, {url}",
  "panel.provider.sandbox": "Symulator sandboxa: kody testowe, pieniądze nie są przekazywane",
  "panel.provider.notifyUrl": "Adres powiadomień",
  "panel.provider.lastCall": "Ostatnie udane wywołanie",
  "panel.provider.lastNotification": "Ostatnie powiadomienie",
  "panel.provider.never": "brak od uruchomienia tego procesu",
};
