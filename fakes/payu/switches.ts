/**
 * The fake PayU's switches: how it misbehaves on purpose, so the adapter's late, repeated,
 * missing and failing answers can be tested. Changed at run time through `set()` or
 * `PATCH /__fake/switches`; a partial object changes only the fields it names.
 */
import { z } from "zod";
import { PAY_BY_LINK_STATUSES } from "./wire.ts";

const Ms = z.number().int().min(0).max(86_400_000);

/** Every switch; `FakePayuSwitches` is its parsed type. */
export const SwitchesSchema = z.object({
  /** Delay between an order's creation and its outcome (COMPLETED or CANCELED) and notification. */
  notifyDelayMs: Ms,
  /**
   * How long a code outside PayU's sandbox list waits for the customer's confirmation in the
   * banking app before the order is CANCELED (BLIK gives about 60 s); null: it waits forever,
   * until the order's validityTime passes or it is cancelled.
   */
  confirmTimeoutMs: Ms.nullable(),
  /** Sends every notification twice. */
  duplicateNotifications: z.boolean(),
  /** Holds each PENDING notification back and sends it after the order's final one. */
  reorderNotifications: z.boolean(),
  /** Sends no notification at all: the adapter must poll. */
  dropNotifications: z.boolean(),
  /** Waits before each new attempt after a notify URL answered anything but 200. */
  notifyRetryDelaysMs: z.array(Ms).max(100),
  /** The hash of OpenPayu-Signature. */
  signatureAlgorithm: z.enum(["MD5", "SHA-1", "SHA-256", "SHA-384", "SHA-512"]),
  /** API calls (/api/v2_1/...) answer this error status, doing nothing; null: off. */
  apiErrorStatus: z.union([z.literal(500), z.literal(503), z.literal(408)]).nullable(),
  /** How many API calls still fail with apiErrorStatus; null: every one. */
  apiErrorRemaining: z.number().int().min(0).nullable(),
  /** Delay before an API call's answer is sent; the work (an order, a refund) is done first. */
  responseDelayMs: Ms,
  /** Lifetime of new OAuth tokens (`expires_in`); PayU's is 43199. */
  tokenTtlSeconds: z.number().int().min(1).max(10_000_000),
  /** What becomes of refunds after notifyDelayMs. */
  refundOutcome: z.enum(["FINALIZED", "CANCELED"]),
  /**
   * Where a refused sandbox code (500500, 700701-700703) is refused: "order" makes the order and
   * cancels it with a transaction resultCode (PayU's documented form); "create" answers the
   * create 400 with that resultCode as `codeLiteral` and makes no order.
   */
  codeRefusals: z.enum(["order", "create"]),
  /**
   * A method's status and amount range in `GET /api/v2_1/paymethods`, by its value (`m`, `c`,
   * ...); what is not given keeps the catalogue's. A change merges into the current overrides.
   */
  payMethods: z.record(
    z.string(),
    z.object({
      status: z.enum(PAY_BY_LINK_STATUSES).optional(),
      minAmount: z.number().int().min(0).max(99_999_999_999).optional(),
      maxAmount: z.number().int().min(0).max(99_999_999_999).optional(),
    }).strict(),
  ),
});
export type FakePayuSwitches = z.infer<typeof SwitchesSchema>;

/** A partial change of switches, validated. */
export const SwitchesPatch = SwitchesSchema.partial().strict();
export type FakePayuSwitchesPatch = z.infer<typeof SwitchesPatch>;

/** PayU-like defaults: a well-behaved PayU whose customers confirm within a second. */
export const DEFAULT_SWITCHES: FakePayuSwitches = {
  notifyDelayMs: 1_000,
  confirmTimeoutMs: 60_000,
  duplicateNotifications: false,
  reorderNotifications: false,
  dropNotifications: false,
  notifyRetryDelaysMs: [1_000, 5_000, 15_000, 60_000, 300_000, 900_000, 3_600_000],
  signatureAlgorithm: "MD5",
  apiErrorStatus: null,
  apiErrorRemaining: null,
  responseDelayMs: 0,
  tokenTtlSeconds: 43_199,
  refundOutcome: "FINALIZED",
  codeRefusals: "order",
  payMethods: {},
};
