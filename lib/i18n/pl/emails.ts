import type { EmailMessages } from "../catalogue.ts";

/** Słowa e-maili wysyłanych klientowi (potwierdzenia, zwroty, linki do odnowienia). */
export const emails: EmailMessages = {};
