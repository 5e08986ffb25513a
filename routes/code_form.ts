import type { Context } from "hono";
import { ApiError } from "../lib/errors.ts";
import { type CustomerDetails, CustomerDetailsInput } from "../lib/payments/customer_details.ts";
import type { EnteredDetails } from "../components/CustomerFields.tsx";
import type { AppEnv } from "./env.ts";
import { limitBody } from "./middleware/body_limit.ts";

/** A code form is a few bytes; anything bigger is not one. */
const MAX_FORM_BYTES = 4096;

/** Caps the body of a code submission. */
export const limitCodeForm = limitBody(
  MAX_FORM_BYTES,
  "The form is larger than a payment code can be.",
);

/** A submitted code, and whether it came from the plain HTML form (no JavaScript). */
interface CodeSubmission {
  code: string;
  /** What the customer entered beside the code, not yet checked (see parseCustomerDetails). */
  details: CustomerDetails;
  fromForm: boolean;
}

/** Reads a JSON body or an HTML form's fields (the page without JavaScript). */
async function readPageBody(
  c: Context<AppEnv>,
  what: string,
): Promise<{ body: Record<string, unknown>; fromForm: boolean }> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  let body: unknown;
  if (type === "application/json") {
    body = await c.req.json().catch(() => {
      throw new ApiError("invalid_json", "The request body is not valid JSON.");
    });
  } else if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    body = await c.req.parseBody();
  } else {
    throw new ApiError(
      "unsupported_media_type",
      `Send the ${what} as JSON or as an HTML form.`,
    );
  }
  const fields = typeof body === "object" && body !== null && !Array.isArray(body) ? body : {};
  return { body: fields as Record<string, unknown>, fromForm: type !== "application/json" };
}

function detailsOf(body: Record<string, unknown>): CustomerDetails {
  const details = CustomerDetailsInput.safeParse(body);
  if (!details.success) {
    const param = String(details.error.issues[0]?.path[0] ?? "email");
    throw new ApiError("parameter_invalid", `'${param}' is not valid.`, { param });
  }
  return details.data;
}

/**
 * Reads the code of a submission and the customer's details beside it: JSON
 * `{"code": "...", "email"?: ...}` from the page's island, or the fields of the HTML form when
 * the browser runs no JavaScript.
 */
export async function readCodeSubmission(c: Context<AppEnv>): Promise<CodeSubmission> {
  const { body, fromForm } = await readPageBody(c, "code");
  const value = body.code;
  if (typeof value !== "string" || value.length > 32) {
    throw new ApiError("parameter_missing", "Enter the 6-digit code.", { param: "code" });
  }
  return { code: value, details: detailsOf(body), fromForm };
}

/** A method chosen on a customer page (a bank, a card, a wallet) and the details beside it. */
export interface ChoiceSubmission {
  method: string | undefined;
  bank: string | undefined;
  details: CustomerDetails;
  fromForm: boolean;
}

/** Reads a redirect method's choice: the fields `method` and `bank`, as JSON or a form. */
export async function readChoiceSubmission(c: Context<AppEnv>): Promise<ChoiceSubmission> {
  const { body, fromForm } = await readPageBody(c, "choice");
  const text = (name: string) => {
    const value = body[name];
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string") {
      throw new ApiError("parameter_invalid", `'${name}' must be a string.`, { param: name });
    }
    return value;
  };
  return { method: text("method"), bank: text("bank"), details: detailsOf(body), fromForm };
}

/**
 * Runs a code attempt; when the customer's details beside the code are wrong and they came from
 * the plain form (no JavaScript), answers with `page` showing them again with the error, rather
 * than an error page that loses what was typed. The island gets the 400 as JSON.
 */
export async function sendBackDetails<T>(
  submission: CodeSubmission | ChoiceSubmission,
  attempt: () => Promise<T>,
  page: (entered: EnteredDetails) => Promise<Response>,
): Promise<T | Response> {
  try {
    return await attempt();
  } catch (error) {
    const refused = error instanceof ApiError ? error.param : undefined;
    // A subscription renewed by link refuses a payment without an address (`customer.email`).
    const param = refused === "customer.email" ? "email" : refused;
    if (
      !submission.fromForm || (param !== "email" && param !== "companyName" && param !== "taxId")
    ) {
      throw error;
    }
    const { details } = submission;
    return await page({
      email: details.email ?? "",
      invoice: details.invoice === "on" || details.invoice === true,
      companyName: details.companyName ?? "",
      taxId: details.taxId ?? "",
      invalid: param,
    });
  }
}
