import type { Store } from "../../db/client.ts";
import type { AccountsSchema } from "../../db/schema.ts";
import {
  type BusinessDetails,
  BusinessDetailsInput,
  putBusinessDetails,
} from "../business_details.ts";
import { type FieldReader, parseRequest } from "./forms.ts";

/** The form's field names: the API's field paths, so a 400's `param` names its field. */
export const BUSINESS_FIELDS = [
  "legalName",
  "address.line1",
  "address.line2",
  "address.postalCode",
  "address.city",
  "address.country",
  "taxId",
  "contactEmail",
  "contactPhone",
  "defaultLanguage",
  "invoiceRequests",
] as const;

/** What the form shows for saved details (its fields' values, by name). */
export function businessFormValues(details: BusinessDetails | null): Record<string, string> {
  if (!details) return { "address.country": "PL", defaultLanguage: "pl" };
  return {
    legalName: details.legalName,
    "address.line1": details.address.line1,
    "address.line2": details.address.line2 ?? "",
    "address.postalCode": details.address.postalCode,
    "address.city": details.address.city,
    "address.country": details.address.country,
    taxId: details.taxId ?? "",
    contactEmail: details.contactEmail,
    contactPhone: details.contactPhone ?? "",
    defaultLanguage: details.defaultLanguage,
    invoiceRequests: details.invoiceRequests ? "on" : "",
  };
}

/**
 * Saves the business details from the panel's form, checked by the API's own schema (a wrong
 * NIP is the same 400 on `taxId`); an empty optional field is left out.
 */
export function saveBusinessDetailsFromForm(
  accounts: Store<AccountsSchema>,
  orgId: number,
  field: FieldReader,
  now: number,
): Promise<BusinessDetails> {
  const optional = (name: string) => {
    const value = field(name).trim();
    return value === "" ? undefined : value;
  };
  const input = parseRequest(BusinessDetailsInput, {
    legalName: field("legalName"),
    address: {
      line1: field("address.line1"),
      line2: optional("address.line2"),
      postalCode: field("address.postalCode"),
      city: field("address.city"),
      country: field("address.country").trim().toUpperCase(),
    },
    taxId: optional("taxId"),
    contactEmail: field("contactEmail").trim(),
    contactPhone: optional("contactPhone"),
    defaultLanguage: field("defaultLanguage"),
    invoiceRequests: field("invoiceRequests") === "on",
  });
  return putBusinessDetails(accounts, orgId, input, now);
}
