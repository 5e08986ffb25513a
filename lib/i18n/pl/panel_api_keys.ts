import type { panelApiKeys as english } from "../en/panel_api_keys.ts";

/** Dla programistów -> Klucze API. */
export const panelApiKeys: { readonly [K in keyof typeof english]: string } = {
  "panel.keys.title": "Klucze API",
  "panel.keys.description":
    "Tajne klucze dla Twojego serwera w środowisku {environment}: wysyłaj klucz w nagłówku {header} do {url}.",
  "panel.keys.env.sandbox": "testowym (sandbox)",
  "panel.keys.env.production": "produkcyjnym",
  "panel.keys.revoked": "Klucz unieważniony. Żądania z nim otrzymują teraz odpowiedź 401.",
  "panel.keys.until": "do",
  "panel.keys.never": "Nigdy",
  "panel.keys.roll": "Wymień",
  "panel.keys.rollConfirm": "Wymień klucz",
  "panel.keys.oldStops": "Stary klucz przestanie działać",
  "panel.keys.delay.now": "Natychmiast",
  "panel.keys.delay.1h": "Za 1 godzinę",
  "panel.keys.delay.24h": "Za 24 godziny",
  "panel.keys.delay.3d": "Za 3 dni",
  "panel.keys.delay.7d": "Za 7 dni",
  "panel.keys.rollText":
    "Klucz {name} otrzyma nowy sekret. Pozostaw stary aktywny na tyle długo, aby wdrożyć nowy.",
  "panel.keys.revoke": "Unieważnij",
  "panel.keys.revokeConfirm": "Unieważnij klucz",
  "panel.keys.revokeText":
    "Żądania z kluczem {key} będą od teraz odrzucane. Tej operacji nie można cofnąć.",
  "panel.keys.status.ACTIVE": "Aktywny",
  "panel.keys.status.EXPIRING": "Wygasa",
  "panel.keys.status.EXPIRED": "Wygasły",
  "panel.keys.status.REVOKED": "Unieważniony",
  "panel.keys.col.key": "Klucz",
  "panel.keys.col.status": "Status",
  "panel.keys.col.created": "Utworzono",
  "panel.keys.col.lastUsed": "Ostatnie użycie",
  "panel.keys.col.actions": "Akcje",
  "panel.keys.rolled": "Klucz wymieniony",
  "panel.keys.created": "Klucz utworzony",
  "panel.keys.copyNow":
    "Skopiuj teraz sekret klucza {name} i zapisz go w menedżerze sekretów. Paystead przechowuje tylko jego skrót i nie pokaże go ponownie.",
  "panel.keys.oldStopped": "Stary klucz przestał działać.",
  "panel.keys.oldWorksUntil": "Stary klucz działa do",
  "panel.keys.secret": "Tajny klucz",
  "panel.keys.tryIt": "Wypróbuj",
  "panel.keys.active": "Aktywne klucze",
  "panel.keys.noActive": "Brak aktywnych kluczy",
  "panel.keys.noActiveText": "Utwórz klucz poniżej, aby wywoływać API.",
  "panel.keys.create": "Utwórz klucz",
  "panel.keys.name": "Nazwa",
  "panel.keys.nameHint":
    "Gdzie klucz jest używany, aby wiedzieć, który unieważnić: „Backend sklepu”, „CI”.",
  "panel.keys.createButton": "Utwórz klucz",
  "panel.keys.inactive": "Unieważnione i wygasłe",
  "panel.keys.inactiveCaption": "Unieważnione i wygasłe klucze",
};
