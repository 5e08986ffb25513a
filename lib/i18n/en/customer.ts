/** Words a paying customer reads on the hosted page, the checkout iframe and their outcomes. */
export const customer = {
  "language.switch": "Polski",
  "language.name": "English",
} as const;
