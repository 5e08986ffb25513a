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
  "panel.config.apply":
    "{count, plural, one {Zaimportuj # zmianę} few {Zaimportuj # zmiany} many {Zaimportuj # zmian} other {Zaimportuj # zmiany}}",
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
  "panel.config.backTo": "Wróć do kopiowania konfiguracji",
};
