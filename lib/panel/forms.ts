import type { z } from "zod";
import { ApiError } from "../errors.ts";
import { currencyDigits, parseMajorAmount } from "../money.ts";

/**
 * Turning what people type into the API's request shapes, so a panel form is checked by the
 * very schema that checks the API call.
 */

/** Reads one field of a submitted form as text ("" when absent). */
export type FieldReader = (name: string) => string;

/** Validates `value` with an API request schema; a failure is the 400 naming the field. */
export function parseRequest<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue.path.map(String).join(".");
  const label = param === "" ? "This form" : `'${param}'`;
  throw new ApiError("parameter_invalid", `${label}: ${issue.message}.`, {
    ...(param !== "" && { param }),
  });
}

/** A price typed in major units, as minor units; 400 on `param` when it is not one. */
export function parseAmountField(text: string, currency: string, param: string): number {
  const amount = parseMajorAmount(text, currency);
  if (amount === null || amount < 1) {
    throw new ApiError(
      "parameter_invalid",
      `Enter an amount like 12.50 (at most ${currencyDigitsText(currency)} after the point).`,
      { param },
    );
  }
  return amount;
}

function currencyDigitsText(currency: string): string {
  const digits = currencyDigits(currency);
  return digits === 1 ? "1 digit" : `${digits} digits`;
}

/**
 * Reads metadata typed as `key=value` lines (blank lines ignored) into a record; 400 naming the
 * line that is not one. The API's Metadata schema then checks the sizes.
 */
export function parseMetadataText(text: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    const equals = line.indexOf("=");
    if (equals <= 0) {
      throw new ApiError(
        "parameter_invalid",
        `Metadata line ${index + 1} is not key=value: write each entry as orderId=A-1001.`,
        { param: "metadata" },
      );
    }
    const key = line.slice(0, equals).trim();
    if (key in metadata) {
      throw new ApiError("parameter_invalid", `Metadata has the key '${key}' twice.`, {
        param: "metadata",
      });
    }
    metadata[key] = line.slice(equals + 1).trim();
  });
  return metadata;
}

/** Metadata as the `key=value` lines the form shows. */
export function metadataText(metadata: Record<string, string>): string {
  return Object.entries(metadata).map(([key, value]) => `${key}=${value}`).join("\n");
}
