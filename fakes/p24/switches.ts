/**
 * The fake Przelewy24's switches: how it misbehaves on purpose (late, repeated, dropped or
 * reordered notifications, an API that fails, hangs or refuses connections, a slow BLIK) and what
 * its account offers. Changed at run time through `set()` or `PATCH /__fake/switches`; a partial
 * object changes only the fields it names (`methods` merges method by method).
 */
import { z } from "zod";

const Ms = z.number().int().min(0).max(86_400_000);
const Url = z.string().url().nullable();

/** Every switch; `FakeP24Switches` is its parsed type. */
export const SwitchesSchema = z.object({
  /** Delay between a payment and its notifications (and a refund and its outcome). */
  notifyDelayMs: Ms,
  /**
   * Waits before each new notification to urlStatus while the transaction is not verified; P24
   * documents "3, 5, 15, 30, 60, 150 and 450 minutes". Refund and BLIK notifications use them
   * until the receiver answers 2xx.
   */
  notifyRetryDelaysMs: z.array(Ms).max(100),
  /** Sends every notification twice. */
  duplicateNotifications: z.boolean(),
  /** Sends the urlStatus notification before the BLIK result notification, not after. */
  reorderNotifications: z.boolean(),
  /** Sends no notification at all: the merchant must ask (by sessionId). */
  dropNotifications: z.boolean(),
  /** How long BLIK takes to decide a code after chargeByCode. */
  blikDecisionDelayMs: Ms,
  /** How long the no-answer code (600600) waits for the banking app; null: forever. */
  blikConfirmTimeoutMs: Ms.nullable(),
  /** API calls (/api/v1/...) answer this error status, doing nothing; null: off. */
  apiErrorStatus: z.union([z.literal(500), z.literal(503)]).nullable(),
  /** How many API calls still fail with apiErrorStatus; null: every one. */
  apiErrorRemaining: z.number().int().min(0).nullable(),
  /**
   * API calls never answer: "before" doing anything, or "after" the work is done (a charge
   * taken, a refund ordered); "off" answers.
   */
  hang: z.enum(["off", "before", "after"]),
  /** Delay before an API call's answer is sent; the work is done first. */
  responseDelayMs: Ms,
  /** What becomes of refunds after notifyDelayMs. */
  refundOutcome: z.enum(["completed", "rejected"]),
  /** The commission P24 keeps, in basis points of the amount, in the transaction report. */
  feeBasisPoints: z.number().int().min(0).max(10_000),
  /** The panel's fixed address for BLIK notifications, used without urlCardPaymentNotification. */
  blikNotifyUrl: Url,
  /** The panel's default address for refund notifications, used without the refund's urlStatus. */
  refundNotifyUrl: Url,
  /** A method's availability and amount range, by its id; what is not given keeps the default. */
  methods: z.record(
    z.string().regex(/^\d+$/),
    z.object({
      status: z.boolean().optional(),
      minAmount: z.number().int().min(0).optional(),
      maxAmount: z.number().int().min(0).optional(),
    }).strict(),
  ),
});
export type FakeP24Switches = z.infer<typeof SwitchesSchema>;

/** A partial change of switches, validated. */
export const SwitchesPatch = SwitchesSchema.partial().strict();
export type FakeP24SwitchesPatch = z.infer<typeof SwitchesPatch>;

const MINUTE = 60_000;

/** A well-behaved P24 whose customers confirm within a second. */
export const DEFAULT_SWITCHES: FakeP24Switches = {
  notifyDelayMs: 500,
  notifyRetryDelaysMs: [3, 5, 15, 30, 60, 150, 450].map((minutes) => minutes * MINUTE),
  duplicateNotifications: false,
  reorderNotifications: false,
  dropNotifications: false,
  blikDecisionDelayMs: 1_000,
  blikConfirmTimeoutMs: 60_000,
  apiErrorStatus: null,
  apiErrorRemaining: null,
  hang: "off",
  responseDelayMs: 0,
  refundOutcome: "completed",
  feeBasisPoints: 0,
  blikNotifyUrl: null,
  refundNotifyUrl: null,
  methods: {},
};
