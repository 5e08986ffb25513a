import type { panelHome as english } from "../en/panel_home.ts";

/** Strona główna panelu i lista kroków przed uruchomieniem produkcji. */
export const panelHome: { readonly [K in keyof typeof english]: string } = {
  "panel.home.welcome": "Hasło zostało ustawione. Witamy w Paystead.",
  "panel.home.joined": "Dołączono do organizacji. Witamy.",
};
