import type { panelBusiness as english } from "../en/panel_business.ts";

/**
 * Zespół i plan → Dane firmy oraz Dla programistów → Skrzynka sandboxa; z komunikatami, które
 * formularz danych firmy pokazuje przy błędach walidacji API.
 */
export const panelBusiness: { readonly [K in keyof typeof english]: string } = {
  "panel.business.title": "Dane firmy",
  "panel.business.lead":
    "Komu płacą Twoi klienci (ustawa o prawach konsumenta, art. 12): te dane widnieją na stronie płatności i w każdym e-mailu wysyłanym do klientów, w sandboxie i na produkcji.",
  "panel.business.notSet":
    "Dane nie zostały jeszcze uzupełnione. Może to zrobić tutaj właściciel lub administrator.",
  "panel.business.legalName": "Nazwa firmy",
  "panel.business.address": "Adres",
  "panel.business.nip": "NIP",
  "panel.business.contact": "Kontakt",
  "panel.business.defaultLanguage": "Domyślny język klientów",
  "panel.business.defaultLanguageHint":
    "Używany, gdy ani płatność, ani przeglądarka klienta nie wskazują języka.",
  "panel.business.language.pl": "polski",
  "panel.business.language.en": "angielski",
  "panel.business.invoiceRequests": "Prośby o fakturę",
  "panel.business.invoiceOffered": "Przyjmowane",
  "panel.business.invoiceNotOffered": "Nieprzyjmowane",
  "panel.business.line1": "Ulica i numer",
  "panel.business.line2": "Adres – druga linia (opcjonalnie)",
  "panel.business.postalCode": "Kod pocztowy",
  "panel.business.city": "Miejscowość",
  "panel.business.country": "Kod kraju",
  "panel.business.countryHint": "Dwie litery, np. PL.",
  "panel.business.taxId": "NIP (opcjonalnie)",
  "panel.business.taxIdHint":
    "10 cyfr; myślniki i spacje są dozwolone. Sprawdzamy poprawność cyfry kontrolnej.",
  "panel.business.contactEmail": "E-mail kontaktowy",
  "panel.business.contactEmailHint": "Na ten adres trafiają odpowiedzi klientów na ich e-maile.",
  "panel.business.contactPhone": "Telefon kontaktowy (opcjonalnie)",
  "panel.business.invoiceCheckbox": "Klienci mogą poprosić o fakturę (podając nazwę firmy i NIP)",
  "panel.business.save": "Zapisz dane firmy",

  "panel.nav.mailbox": "Skrzynka sandboxa",
  "panel.mailbox.title": "Skrzynka sandboxa",
  "panel.mailbox.description":
    "Bez SMTP_URL sandbox nie wysyła e-maili: wiadomości, które otrzymaliby klienci, trafiają tutaj, od najnowszych. Tę samą listę zwraca {api}.",
  "panel.mailbox.smtp":
    "W tym sandboxie ustawiono SMTP_URL: nowe e-maile trafiają na ten serwer, a nie tutaj.",
  "panel.mailbox.empty": "Nie ma jeszcze żadnych e-maili",
  "panel.mailbox.emptyText":
    "Opłać w sandboxie płatność z adresem e-mail klienta (kod testowy {code}): pojawi się tu jej potwierdzenie, a po zwrocie także powiadomienie o zwrocie.",
  "panel.mailbox.subject": "Temat",
  "panel.mailbox.to": "Do",
  "panel.mailbox.from": "Od",
  "panel.mailbox.language": "Język",
  "panel.mailbox.received": "Otrzymano",
  "panel.mailbox.payment": "Płatność",
  "panel.mailbox.messageId": "Message-ID",
  "panel.mailbox.older": "Starsze e-maile →",
  "panel.mailbox.email": "E-mail",
  "panel.mailbox.headers": "Nagłówki",
  "panel.mailbox.asSeen": "Tak widzi go klient",
  "panel.mailbox.frameTitle": "E-mail „{subject}”",
  "panel.mailbox.plainText": "Wersja tekstowa",
  "panel.mailbox.kind.PAYMENT_CONFIRMATION": "Potwierdzenie płatności",
  "panel.mailbox.kind.RENEWAL_NOTICE": "Powiadomienie o odnowieniu",
  "panel.mailbox.kind.RENEWAL_REMINDER": "Przypomnienie o odnowieniu",
  "panel.mailbox.kind.REFUND_NOTICE": "Powiadomienie o zwrocie",

  "panel.error.business.legalName": "Wpisz nazwę firmy.",
  "panel.error.business.line1": "Wpisz ulicę i numer.",
  "panel.error.business.postalCode": "Wpisz kod pocztowy.",
  "panel.error.business.city": "Wpisz miejscowość.",
  "panel.error.business.tooLong":
    "To pole może mieć najwyżej {max, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}}.",
  "panel.error.business.country": "Wpisz dwuliterowy kod kraju (ISO 3166-1), np. PL.",
  "panel.error.business.nip":
    "Nieprawidłowy NIP: wpisz 10 cyfr z poprawną cyfrą kontrolną (myślniki i spacje są dozwolone).",
  "panel.error.business.email": "Wpisz poprawny adres e-mail, np. kontakt@firma.pl.",
  "panel.error.business.phone": "Wpisz poprawny numer telefonu, np. +48 22 123 45 67.",
  "panel.error.business.language": "Wybierz język z listy.",
  "panel.error.sandboxOnly":
    "Ta operacja jest dostępna tylko w sandboxie; wywołaj ją na hoście API sandboxa ({url}).",
  "panel.error.noEmail": "Nie znaleziono e-maila o identyfikatorze „{id}”.",
};
