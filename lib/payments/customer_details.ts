import { z } from "zod";
import type { Kysely } from "kysely";
import { addCustomerDetails, type CustomerDetailsChange } from "../../db/payments.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { TaxId } from "../business_details.ts";
import { ApiError } from "../errors.ts";

/** A form's text field: absent, or trimmed with nothing left, means not given. */
const Optional = (max: number) =>
  z.string().max(max).optional().transform((value) => value?.trim() || undefined);

/**
 * What a customer may add on the hosted page or in the checkout iframe beside the code, as the
 * HTML form (`invoice=on`) or the island (`invoice: true`) sends it.
 */
export const CustomerDetailsInput = z.object({
  email: Optional(254),
  invoice: z.union([z.literal("on"), z.boolean()]).optional(),
  companyName: Optional(200),
  taxId: Optional(20),
});

/** What a customer entered beside the code, before it is checked. */
export type CustomerDetails = z.output<typeof CustomerDetailsInput>;

/** The field of the page a customer-details error points at. */
export type CustomerDetailsField = "email" | "companyName" | "taxId";

const Email = z.email().max(254);

/**
 * Checks what the customer entered: an address is well formed, and an invoice request (only
 * where the organisation offers invoices) names a company and a NIP with a valid checksum.
 * Throws 400 with `param` naming the field; nothing is stored before this passes.
 */
export function parseCustomerDetails(
  input: CustomerDetails,
  offersInvoices: boolean,
): CustomerDetailsChange {
  let customerEmail: string | null = null;
  if (input.email !== undefined) {
    if (!Email.safeParse(input.email).success) throw invalid("email", "an e-mail address");
    customerEmail = input.email.toLowerCase();
  }
  const wantsInvoice = offersInvoices && (input.invoice === "on" || input.invoice === true);
  if (!wantsInvoice) return { customerEmail, invoice: null };
  if (input.companyName === undefined) throw invalid("companyName", "the company's name");
  const taxId = TaxId.safeParse(input.taxId ?? "");
  if (!taxId.success) throw invalid("taxId", "a NIP: 10 digits with a valid checksum");
  return { customerEmail, invoice: { companyName: input.companyName, taxId: taxId.data } };
}

function invalid(param: CustomerDetailsField, what: string): ApiError {
  return new ApiError("parameter_invalid", `'${param}' must be ${what}.`, { param });
}

/** Tells whether `change` adds anything to a payment. */
export function hasCustomerDetails(change: CustomerDetailsChange): boolean {
  return change.customerEmail !== null || change.invoice !== null;
}

/**
 * Stores the customer's details on a PENDING payment in `trx` (see addCustomerDetails); a
 * payment that is no longer payable is not changed.
 */
export async function saveCustomerDetails(
  trx: Kysely<EnvironmentSchema>,
  paymentId: number,
  change: CustomerDetailsChange,
  now: number,
): Promise<boolean> {
  if (!hasCustomerDetails(change)) return false;
  return await addCustomerDetails(trx, paymentId, change, now);
}
