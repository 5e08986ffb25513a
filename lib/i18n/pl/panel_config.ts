import type { panelConfig as english } from "../en/panel_config.ts";

/** Dla programistów -> Kopiowanie konfiguracji. */
export const panelConfig: { readonly [K in keyof typeof english]: string } = {
  "panel.config.title": "Kopiowanie konfiguracji",
  "panel.config.description":
    "Przenoś oferty, endpointy webhooków i ustawienia checkoutu między sandboxem a produkcją — świadomie.",
  "panel.config.download.sandbox": "Pobierz konfigurację tego sandboxa",
  "panel.config.download.production": "Pobierz konfigurację tej produkcji",
  "panel.config.downloadText":
    "Plik z ofertami, endpointami webhooków (nigdy z ich sekretami podpisu) i originami, na których można osadzić checkout. Nie zawiera kluczy API. Nie udostępniaj go: zawiera adresy Twoich endpointów.",
  "panel.config.downloadButton": "Pobierz konfigurację",
  "panel.config.import.sandbox": "Zaimportuj plik z sandboxa",
  "panel.config.import.production": "Zaimportuj plik z produkcji",
  "panel.config.file": "Plik konfiguracji",
  "panel.config.fileHint":
    "Zanim cokolwiek zostanie zapisane, zobaczysz, co zostanie utworzone i zmienione.",
  "panel.config.show": "Pokaż zmiany",
  "panel.config.reviewTitle": "Sprawdź import",
  "panel.config.reviewDescription": "Z „{org}” ({environment}), wyeksportowano {at}.",
  "panel.config.nothing": "Nie ma nic do zmiany",
  "panel.config.willDo": "Ten import",
  "panel.config.unchanged":
    "{count, plural, one {# element jest już zgodny.} few {# elementy są już zgodne.} many {# elementów jest już zgodnych.} other {# elementu jest już zgodne.}}",
  "panel.config.back": "Wróć",
  "panel.config.importedTitle": "Konfiguracja została zaimportowana",
  "panel.config.nothingChanged": "Nic się nie zmieniło: ta konfiguracja była już zaimportowana.",
  "panel.config.imported":
    "{count, plural, one {Zaimportowano # zmianę.} few {Zaimportowano # zmiany.} many {Zaimportowano # zmian.} other {Zaimportowano # zmiany.}}",
  "panel.config.newEndpoint": "Nowy endpoint webhooków {url}",
  "panel.config.secret": "Sekret podpisu: widoczny tylko teraz, od razu wpisz go w swoim odbiorcy",
  "panel.config.offers": "Oferty: qrId tam i tutaj",
  "panel.config.offer": "Oferta",
  "panel.config.there": "qrId tam",
  "panel.config.here": "qrId tutaj",
  "panel.config.item.offerCreate":
    "utworzy ofertę „{name}” ({price}{inactive, select, yes {, nieaktywna} other {}}) dla {qrId}",
  "panel.config.item.recurringPrice":
    "{amount} co {count} {interval, select, DAY {dn.} WEEK {tydz.} MONTH {mies.} YEAR {r.} other {{interval}}}",
  "panel.config.item.offerChange": "zmieni ofertę „{name}” {targetId} (z {qrId}): {fields}",
  "panel.config.item.endpointCreate":
    "utworzy endpoint webhooków {url} ({events}{disabled, select, yes {, wyłączony} other {}}) z nowym sekretem podpisu",
  "panel.config.item.endpointChange":
    "zmieni endpoint webhooków {targetId} (z {sourceId}): {fields}",
  "panel.config.item.checkout": "ustawi dozwolone originy checkoutu na {to} (było: {from})",
  "panel.config.item.none": "brak",
  "panel.config.include": "Importuj",
  "panel.config.refused":
    "Pominięte: środowisko {environment, select, production {produkcyjne} other {testowe}} tego nie przyjmie. {reason}",
  "panel.config.chooseHint":
    "Odznacz to, czego nie chcesz tutaj, np. oferty testowe albo webhooki kierowane na Twój komputer.",
  "panel.config.leftOut": "Pominięte",
  "panel.config.applySelected": "Importuj zaznaczone zmiany",
  "panel.config.backTo": "Wróć do kopiowania konfiguracji",
};
