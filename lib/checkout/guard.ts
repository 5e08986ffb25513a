import type { Kysely } from "kysely";
import { findCodeGuard, saveCodeGuard } from "../../db/checkout_code_guards.ts";
import type { CheckoutCodeGuardRow, EnvironmentSchema } from "../../db/schema.ts";
import { ApiError } from "../errors.ts";

/** Wrong codes in a row that lock code entry for a payment or session. */
export const MAX_WRONG_CODES = 5;
/** How long code entry stays locked. */
export const LOCK_MS = 15 * 60_000;

type Db = Kysely<EnvironmentSchema>;

function remainingSeconds(guard: CheckoutCodeGuardRow | undefined, now: number): number {
  if (!guard?.locked_until || guard.locked_until <= now) return 0;
  return Math.ceil((guard.locked_until - now) / 1000);
}

/**
 * How many seconds code entry for `subject` (a payment's or session's public id) stays locked;
 * 0 when codes are accepted. The counter lives in the database so every process sees it.
 */
export async function lockedForSeconds(db: Db, subject: string, now: number): Promise<number> {
  return remainingSeconds(await findCodeGuard(db, subject), now);
}

/** Throws 429 `code_entry_locked` with Retry-After while code entry for `subject` is locked. */
export async function assertCodeEntryOpen(db: Db, subject: string, now: number): Promise<void> {
  const seconds = await lockedForSeconds(db, subject, now);
  if (seconds > 0) {
    throw new ApiError(
      "code_entry_locked",
      `Too many wrong codes; code entry is paused for ${
        Math.ceil(seconds / 60)
      } more minute(s). Try again later.`,
      { headers: { "Retry-After": String(seconds) } },
    );
  }
}

/** Counts a wrong code for `subject` in `trx`; the fifth in a row locks code entry for LOCK_MS. */
export async function recordWrongCode(trx: Db, subject: string, now: number): Promise<void> {
  const guard = await findCodeGuard(trx, subject);
  const lockEnded = guard?.locked_until != null && guard.locked_until <= now;
  const wrongCodes = (guard && !lockEnded ? guard.wrong_codes : 0) + 1;
  const locks = wrongCodes >= MAX_WRONG_CODES;
  await saveCodeGuard(trx, {
    subject,
    wrong_codes: locks ? 0 : wrongCodes,
    locked_until: locks ? now + LOCK_MS : lockEnded ? null : guard?.locked_until ?? null,
    updated_at: now,
  });
}

/**
 * Hands `from`'s wrong-code counter to `to` in `trx`: a hosted payment started again counts on
 * from where the failed one stopped, so new payments do not reset the limit on guessing.
 */
export async function carryCodeGuard(trx: Db, from: string, to: string, now: number) {
  const guard = await findCodeGuard(trx, from);
  if (!guard) return;
  await saveCodeGuard(trx, { ...guard, subject: to, updated_at: now });
}
