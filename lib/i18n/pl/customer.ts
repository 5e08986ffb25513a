import type { CustomerMessages } from "../catalogue.ts";

/** Słowa, które klient czyta na stronie płatności, w ramce checkoutu i na ekranach wyniku. */
export const customer: CustomerMessages = {
  "language.switch": "English",
  "language.name": "Polski",
};
