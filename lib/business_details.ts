import { z } from "zod";
import type { Store } from "../db/client.ts";
import { findBusinessDetails, saveBusinessDetails } from "../db/business_details.ts";
import type { AccountsSchema, BusinessDetailsRow } from "../db/schema.ts";
import { ApiError } from "./errors.ts";
import { type Language, LANGUAGES } from "./i18n/languages.ts";

const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];

/** A Polish NIP as 10 digits, without the separators people write (`123-456-32-18`), or null. */
export function normaliseNip(value: string): string | null {
  const digits = value.trim().replace(/^PL/i, "").replace(/[\s-]/g, "");
  if (!/^\d{10}$/.test(digits)) return null;
  const sum = NIP_WEIGHTS.reduce(
    (total, weight, index) => total + weight * Number(digits[index]),
    0,
  );
  return sum % 11 === Number(digits[9]) ? digits : null;
}

/** A NIP in requests: 10 digits with a valid checksum; dashes and spaces allowed, stored without. */
export const TaxId = z.string().max(20).transform((value, context) => {
  const nip = normaliseNip(value);
  if (nip === null) {
    context.addIssue({ code: "custom", message: "must be a NIP: 10 digits with a valid checksum" });
    return z.NEVER;
  }
  return nip;
}).meta({ example: "5260250274" });

const Text = (max: number) => z.string().trim().min(1, "must not be empty").max(max);

/**
 * The body of `PUT /api/v1/business-details` and the shape `GET` answers with. The examples make
 * the API reference's curl a request that works as shown.
 */
export const BusinessDetailsInput = z.strictObject({
  legalName: Text(200).meta({ example: "Sklep Kowalski sp. z o.o." }),
  address: z.strictObject({
    line1: Text(200).meta({ example: "ul. Marszałkowska 1" }),
    line2: Text(200).optional(),
    postalCode: Text(20).meta({ example: "00-001" }),
    city: Text(100).meta({ example: "Warszawa" }),
    country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as PL")
      .meta({ example: "PL" }),
  }),
  taxId: TaxId.optional(),
  contactEmail: z.email("must be an e-mail address").max(254).meta({ example: "sklep@example.pl" }),
  contactPhone: z.string().trim().regex(/^\+?[\d ()-]{6,24}$/, "must be a phone number")
    .optional(),
  defaultLanguage: z.enum(LANGUAGES).meta({ example: "pl" }),
  invoiceRequests: z.boolean().meta({ example: true }),
}).meta({ id: "BusinessDetailsInput" });

/** The answer of `GET/PUT /api/v1/business-details`: what was saved, normalised. */
export const BusinessDetailsResource = z.strictObject({
  legalName: z.string().meta({ example: "Sklep Kowalski sp. z o.o." }),
  address: z.strictObject({
    line1: z.string().meta({ example: "ul. Marszałkowska 1" }),
    line2: z.string().optional(),
    postalCode: z.string().meta({ example: "00-001" }),
    city: z.string().meta({ example: "Warszawa" }),
    country: z.string().meta({ example: "PL" }),
  }),
  taxId: z.string().optional().meta({ description: "The NIP, 10 digits.", example: "5260250274" }),
  contactEmail: z.string().meta({ example: "sklep@example.pl" }),
  contactPhone: z.string().optional(),
  defaultLanguage: z.enum(LANGUAGES).meta({
    description: "The language of customer pages and e-mails when nothing else decides it.",
  }),
  invoiceRequests: z.boolean().meta({
    description: "Whether customers may ask for an invoice (`invoiceRequest` on payments).",
  }),
}).meta({
  id: "BusinessDetails",
  description:
    "Who customers pay: shown in the hosted page's footer and in every customer e-mail " +
    "(consumer rights act, art. 12). Shared by the sandbox and production.",
});

/** Who a customer pays, as the API and the customer surfaces show it. */
export interface BusinessDetails {
  legalName: string;
  address: { line1: string; line2?: string; postalCode: string; city: string; country: string };
  taxId?: string;
  contactEmail: string;
  contactPhone?: string;
  defaultLanguage: Language;
  invoiceRequests: boolean;
}

/** Turns a row into the API object. */
export function toBusinessDetails(row: BusinessDetailsRow): BusinessDetails {
  return {
    legalName: row.legal_name,
    address: {
      line1: row.address_line1,
      ...(row.address_line2 !== null && { line2: row.address_line2 }),
      postalCode: row.postal_code,
      city: row.city,
      country: row.country,
    },
    ...(row.tax_id !== null && { taxId: row.tax_id }),
    contactEmail: row.contact_email,
    ...(row.contact_phone !== null && { contactPhone: row.contact_phone }),
    defaultLanguage: row.default_language === "en" ? "en" : "pl",
    invoiceRequests: row.invoice_requests === 1,
  };
}

/** An organisation's business details; 404 while it has not set them. */
export async function requireBusinessDetails(
  accounts: Store<AccountsSchema>,
  orgId: number,
): Promise<BusinessDetails> {
  const details = await getBusinessDetails(accounts, orgId);
  if (details) return details;
  throw new ApiError(
    "resource_not_found",
    "This organisation has no business details yet; set them with PUT /api/v1/business-details " +
      "(or in the panel under Team and plan).",
  );
}

/** An organisation's business details, or null while it has not set them. */
export async function getBusinessDetails(
  accounts: Store<AccountsSchema>,
  orgId: number,
): Promise<BusinessDetails | null> {
  const row = await findBusinessDetails(accounts.db, orgId);
  return row ? toBusinessDetails(row) : null;
}

/** Replaces an organisation's business details with `input` (already validated). */
export async function putBusinessDetails(
  accounts: Store<AccountsSchema>,
  orgId: number,
  input: z.output<typeof BusinessDetailsInput>,
  now: number,
): Promise<BusinessDetails> {
  const row = await accounts.write((trx) =>
    saveBusinessDetails(trx, {
      org_id: orgId,
      legal_name: input.legalName,
      address_line1: input.address.line1,
      address_line2: input.address.line2 ?? null,
      postal_code: input.address.postalCode,
      city: input.address.city,
      country: input.address.country,
      tax_id: input.taxId ?? null,
      contact_email: input.contactEmail.toLowerCase(),
      contact_phone: input.contactPhone ?? null,
      default_language: input.defaultLanguage,
      invoice_requests: input.invoiceRequests ? 1 : 0,
      updated_at: now,
    })
  );
  return toBusinessDetails(row);
}

/**
 * Throws 400 `invoiceRequest` unless the organisation offers invoice requests: a customer must
 * not be promised an invoice the business never said it issues.
 */
export async function requireInvoiceRequests(
  accounts: Store<AccountsSchema>,
  orgId: number,
): Promise<void> {
  const details = await getBusinessDetails(accounts, orgId);
  if (details?.invoiceRequests) return;
  throw new ApiError(
    "parameter_invalid",
    details
      ? "This organisation does not offer invoice requests; set invoiceRequests to true in " +
        "its business details (PUT /api/v1/business-details) first."
      : "This organisation has no business details yet; set them with invoiceRequests: true " +
        "(PUT /api/v1/business-details) before accepting invoice requests.",
    { param: "invoiceRequest" },
  );
}
