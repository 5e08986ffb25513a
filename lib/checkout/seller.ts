import type { BusinessDetails } from "../business_details.ts";
import type { Language } from "../i18n/mod.ts";

/** Who the customer pays, as a page's footer shows it (consumer rights act, art. 12). */
export interface Seller {
  /** The legal name, or the organisation's name while it has set no business details. */
  name: string;
  /** The postal address, one line each; empty without business details. */
  address: string[];
  taxId: string | null;
  email: string | null;
  phone: string | null;
}

const regionNames = new Map<Language, Intl.DisplayNames>();

function countryName(country: string, language: Language): string {
  let names = regionNames.get(language);
  if (!names) {
    regionNames.set(language, names = new Intl.DisplayNames([language], { type: "region" }));
  }
  return names.of(country) ?? country;
}

/** The footer of an organisation's customer pages, in `language`. */
export function sellerOf(
  organisationName: string,
  details: BusinessDetails | null,
  language: Language,
): Seller {
  if (!details) {
    return { name: organisationName, address: [], taxId: null, email: null, phone: null };
  }
  const { address } = details;
  return {
    name: details.legalName,
    address: [
      address.line1,
      ...(address.line2 ? [address.line2] : []),
      `${address.postalCode} ${address.city}`,
      countryName(address.country, language),
    ],
    taxId: details.taxId ?? null,
    email: details.contactEmail,
    phone: details.contactPhone ?? null,
  };
}
