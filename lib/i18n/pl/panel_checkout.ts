import type { panelCheckout as english } from "../en/panel_checkout.ts";

/** Dla programistów -> Sesje checkoutu: dozwolone strony, podgląd na żywo, sesje. */
export const panelCheckout: { readonly [K in keyof typeof english]: string } = {
  "panel.checkout.saved":
    "Lista dozwolonych stron została zapisana. Obowiązuje od następnego załadowania każdej sesji.",
  "panel.checkout.title": "Sesje checkoutu",
  "panel.checkout.description":
    "Osadzony checkout: ramka iframe na Twojej stronie, dla jednej sesji oferty.",
  "panel.checkout.allowlist": "Gdzie można osadzić checkout",
  "panel.checkout.allowlistText":
    "Strona checkoutu wysyła nagłówek {header} z originem adresu {embedLink} sesji, który musi znajdować się na tej liście; na innych stronach przeglądarki jej nie wyświetlą. Usunięcie originu zatrzymuje ładowanie jego otwartych sesji.",
  "panel.checkout.origins": "Dozwolone originy, po jednym w wierszu",
  "panel.checkout.originsSandbox":
    "schemat://host[:port], bez ścieżki: https://shop.example. http:// tylko dla localhost w sandboxie. Najwyżej 20.",
  "panel.checkout.originsProduction":
    "https://host[:port], bez ścieżki: https://shop.example. Najwyżej 20.",
  "panel.checkout.save": "Zapisz listę",
  "panel.checkout.preview": "Podgląd na żywo",
  "panel.checkout.previewInSandbox":
    "Podgląd działa w sandboxie, więc prawdziwe pieniądze nie są przekazywane:",
  "panel.checkout.openSandbox": "otwórz stronę checkoutu w sandboxie",
  "panel.checkout.noOffer": "Brak aktywnej oferty do podglądu",
  "panel.checkout.createOffer": "Najpierw utwórz ofertę",
  "panel.checkout.first": ".",
  "panel.checkout.previewText":
    "Otwiera tutaj prawdziwą sesję sandboxa, osadzoną tym samym embed.js, którego używa Twoja strona, i pokazuje wysyłane przez nią komunikaty. Origin panelu ({origin}) jest dozwolony tylko dla sesji podglądu; Twoja lista pozostaje bez zmian.",
  "panel.checkout.offer": "Oferta",
  "panel.checkout.openPreview": "Otwórz podgląd",
  "panel.checkout.embed": "Osadź checkout na swojej stronie",
  "panel.checkout.previewTitle": "Podgląd checkoutu",
  "panel.checkout.newPreview": "Nowa sesja podglądu",
  "panel.checkout.session": "Sesja",
  "panel.checkout.expires": "wygasa",
  "panel.checkout.previewNote":
    "Sesja jest prawdziwa: tworzy płatności oraz wysyła zdarzenia i webhooki jak każda sesja sandboxa, z {metadata}, aby Twój handler mógł ją rozpoznać.",
  "panel.checkout.filter": "Status",
  "panel.checkout.filter.all": "Wszystkie",
  "panel.checkout.filter.OPEN": "Otwarte",
  "panel.checkout.filter.COMPLETED": "Zakończone",
  "panel.checkout.filter.EXPIRED": "Wygasłe",
  "panel.checkout.panelPreview": "podgląd w panelu",
  "panel.checkout.recent": "Ostatnie sesje",
  "panel.checkout.none": "Brak sesji",
  "panel.checkout.noneText": "Twój serwer tworzy je wywołaniem {call}.",
  "panel.checkout.col.session": "Sesja",
  "panel.checkout.col.amount": "Kwota",
  "panel.checkout.col.status": "Status",
  "panel.checkout.col.embeddedOn": "Osadzona na",
  "panel.checkout.col.payment": "Płatność",
  "panel.checkout.col.expires": "Wygasa",
  "panel.checkout.older": "Starsze sesje →",
  "panel.checkout.island.notLoaded": "Nie udało się załadować embed.js; odśwież stronę.",
  "panel.checkout.island.frameTitle": "Podgląd checkoutu",
  "panel.checkout.island.messages": "Komunikaty do Twojej strony",
  "panel.checkout.island.messagesText":
    "Co otrzymują funkcje zwrotne [embedJs], od najnowszych. Wypróbuj kody sandboxa [succeeds] i [declined].",
  "panel.checkout.island.waiting": "Czekam na checkout…",
};
