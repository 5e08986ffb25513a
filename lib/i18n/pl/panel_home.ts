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
};
