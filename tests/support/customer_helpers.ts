/** Business details a Polish shop would give (5260250274 is a NIP with a valid checksum). */
export const SHOP_DETAILS = {
  legalName: "Kawiarnia Ziarno sp. z o.o.",
  address: { line1: "ul. Mokotowska 12", postalCode: "00-561", city: "Warszawa", country: "PL" },
  taxId: "526-025-02-74",
  contactEmail: "Kontakt@Ziarno.example.pl",
  contactPhone: "+48 22 123 45 67",
  defaultLanguage: "pl",
  invoiceRequests: true,
};
