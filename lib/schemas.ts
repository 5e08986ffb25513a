import { z } from "zod";
import { CURRENCY_CODES, isCurrency, MAX_AMOUNT } from "./money.ts";

/** Merchant-defined key/value data: at most 50 keys of at most 40 characters, values up to 500. */
export const Metadata = z.record(
  z.string().min(1, "metadata keys must not be empty").max(
    40,
    "metadata keys are at most 40 characters",
  ),
  z.string().max(500, "metadata values are at most 500 characters"),
).refine((value) => Object.keys(value).length <= 50, "metadata has at most 50 keys")
  .meta({
    id: "Metadata",
    description: "Up to 50 string keys (at most 40 characters) with string values (at most 500).",
    maxProperties: 50,
    propertyNames: { minLength: 1, maxLength: 40 },
    example: { orderId: "A-1001" },
  });
export type Metadata = z.infer<typeof Metadata>;

/** An ISO 4217 currency code in upper case. */
export const Currency = z.string().refine(
  isCurrency,
  "must be an ISO 4217 currency code in upper case, such as PLN or EUR",
).meta({
  description: "ISO 4217 currency code, upper case.",
  example: "PLN",
  enum: [...CURRENCY_CODES],
});

/** A positive amount in minor units. */
export const Amount = z.int("must be a whole number of minor units (4999 is 49.99)")
  .min(1, "must be at least 1 minor unit")
  .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT} minor units`)
  .meta({
    description: "Amount in minor units (4999 is 49.99).",
    example: 4999,
  });

/** An amount in minor units that may be zero. */
export const AmountOrZero = z.int().min(0).max(MAX_AMOUNT);

/** An absolute http(s) URL of at most 2048 characters. */
export const HttpUrl = z.string().max(2048).refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}, "must be an absolute http:// or https:// URL").meta({
  example: "https://shop.example/thanks",
  pattern: "^[Hh][Tt][Tt][Pp][Ss]?://",
});

/** What a name must hold after trimming: at least one character that is not a space. */
export const NOT_BLANK = { pattern: "\\S" } as const;

/** How many times an object changed: 1 when created, one more with every change. */
export const Version = z.int().min(1).meta({
  description: "Grows by one with every change of the object, in the same transaction as the " +
    "change and its event: a receiver drops an event whose data.version is not above the " +
    "version it already holds.",
  example: 3,
});

/** A time as an ISO 8601 UTC string with milliseconds. */
export const Timestamp = z.iso.datetime().meta({ example: "2026-11-21T10:00:00.000Z" });

/** `?limit=&startingAfter=` of every list. */
export const ListQuery = z.strictObject({
  limit: z.coerce.number<string>().int().min(1).max(100).default(20).meta({
    description: "How many items to return, 1 to 100.",
  }),
  startingAfter: z.string().max(100).optional().meta({
    description: "An id from the previous page; the list continues after it.",
  }),
});
export type ListQuery = z.infer<typeof ListQuery>;

/** A page of a list, newest first. */
export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z.strictObject({
    data: z.array(item),
    hasMore: z.boolean(),
  }).meta({ id, description: "A page of results, newest first." });
}

/** A page of domain results before mapping to resources. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/** The body of every error response. */
export const ErrorBody = z.strictObject({
  error: z.strictObject({
    type: z.enum([
      "invalid_request",
      "authentication",
      "permission",
      "not_found",
      "conflict",
      "rate_limit",
      "api",
    ]),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    requestId: z.string(),
  }),
}).meta({ id: "Error", description: "Every error has this shape." });
