import type { panelReference as english } from "../en/panel_reference.ts";

/** Słowa dokumentacji API (opisy operacji pochodzą z dokumentu OpenAPI). */
export const panelReference: { readonly [K in keyof typeof english]: string } = {
  "panel.ref.title": "Dokumentacja API",
  "panel.ref.onThisPage": "Na tej stronie",
  "panel.ref.introduction": "Wprowadzenie",
  "panel.ref.webhookEvents": "Zdarzenia webhooków",
  "panel.ref.schemas": "Schematy",
  "panel.ref.intro":
    "Bazowy adres URL tego środowiska: {server}. Żądania i odpowiedzi są w formacie JSON z polami w camelCase; kwoty są liczbami całkowitymi w jednostkach podrzędnych waluty ISO 4217. Dokument do odczytu maszynowego: {openapi}.",
  "panel.ref.authentication": "Uwierzytelnianie",
  "panel.ref.authText":
    "Wysyłaj tajny klucz tego środowiska w nagłówku {header}. Klucze utworzysz w sekcji {keys}. Klucz z drugiego środowiska otrzyma odpowiedź 401 ze wskazaniem właściwego hosta; plan FREE otrzyma 403.",
  "panel.ref.keysLink": "Dla programistów → Klucze API",
  "panel.ref.curlText":
    "Curl każdej operacji odczytuje klucz ze zmiennej {key}, a identyfikatory w ścieżce ze zmiennych powłoki, takich jak {example}: najpierw ustaw je na swoje identyfikatory.",
  "panel.ref.errors": "Błędy",
  "panel.ref.errorsText":
    "Każdy błąd ma postać {body} z takim samym nagłówkiem {requestId}; {param} wskazuje błędne pole.",
  "panel.ref.idempotency": "Idempotencja i listy",
  "panel.ref.idempotencyText":
    "Każde żądanie POST przyjmuje {key}: ponowienie w ciągu 24 godzin otrzyma pierwszą odpowiedź z nagłówkiem {replayed}. Listy przyjmują {limit} (1–100) i {startingAfter}, a odpowiadają {list}, od najnowszych.",
  "panel.ref.eventsText":
    "Wysyłane metodą POST do Twoich endpointów jako {event}, gdzie {data} to obiekt w postaci zwracanej przez API. Każde zawiera {id}, {timestamp} i {signature} (Standard Webhooks v1).",
  "panel.ref.field": "Pole",
  "panel.ref.type": "Typ",
  "panel.ref.description": "Opis",
  "panel.ref.parameters": "Parametry",
  "panel.ref.parametersOf": "Parametry operacji {operation}",
  "panel.ref.name": "Nazwa",
  "panel.ref.in": "Miejsce",
  "panel.ref.requestBody": "Treść żądania",
  "panel.ref.responses": "Odpowiedzi",
};
