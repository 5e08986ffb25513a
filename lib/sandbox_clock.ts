import { z } from "zod";
import { addClockOffset, findClockOffset } from "../db/sandbox_clocks.ts";
import { afterCommit } from "./after_commit.ts";
import { toIso } from "./clock.ts";
import { type OrgContext, orgContext, type Services } from "./context.ts";
import { ApiError } from "./errors.ts";
import { requireSandbox } from "./payments/mod.ts";
import { Timestamp } from "./schemas.ts";

const DAY_MS = 86_400_000;
/** How far one organisation's sandbox clock may run ahead in total. */
const MAX_ADVANCED_DAYS = 10 * 366;

export const AdvanceSandboxClockRequest = z.strictObject({
  days: z.int().min(1).max(366).meta({
    description: "How many days to move this organisation's sandbox clock forward (1 to 366).",
    example: 30,
  }),
}).meta({ id: "AdvanceSandboxClockRequest" });
export type AdvanceSandboxClockRequest = z.infer<typeof AdvanceSandboxClockRequest>;

export const SandboxClock = z.strictObject({
  now: Timestamp.meta({ description: "This organisation's current sandbox time." }),
  advancedDays: z.int().meta({ description: "How far it runs ahead of the real clock." }),
}).meta({
  id: "SandboxClock",
  description: "An organisation's sandbox time: the real time plus the days it was advanced. " +
    "Every time this organisation's sandbox data records, and every deadline it has " +
    "(renewals, retries, expiries), runs on it; other organisations are not affected.",
});
export type SandboxClock = z.infer<typeof SandboxClock>;

/**
 * Builds an organisation's context on its own clock: in the sandbox the system time plus how
 * far the organisation advanced it; in production the system time.
 */
export async function orgContextOnClock(services: Services, orgId: number): Promise<OrgContext> {
  const offset = services.environment === "sandbox" ? await cachedClockOffset(services, orgId) : 0;
  return orgContext(services, orgId, offset);
}

/**
 * How long a read offset serves requests. An advance made by this process applies at once (it
 * drops the entry when it commits); one made by another process over the same libSQL server is
 * seen within this time, as a revoked key is (see ApiKeyAuthenticator).
 */
const OFFSET_TTL_MS = 1_000;
const OFFSET_CACHE_MAX = 10_000;

/** An organisation's offset, read or being read, and when the read began (performance.now()). */
interface CachedOffset {
  offset: Promise<number>;
  readAt: number;
}

/** Per database: each organisation's offset. */
const offsetCache = new WeakMap<object, Map<number, CachedOffset>>();

function offsetsOf(services: Services): Map<number, CachedOffset> {
  let offsets = offsetCache.get(services.store);
  if (!offsets) offsetCache.set(services.store, offsets = new Map());
  return offsets;
}

/** The organisation's offset: every API request needs it, so it is not read for each one. */
async function cachedClockOffset(services: Services, orgId: number): Promise<number> {
  const offsets = offsetsOf(services);
  const cached = offsets.get(orgId);
  const now = performance.now();
  if (cached && now - cached.readAt < OFFSET_TTL_MS) return await cached.offset;
  // NOTE: the read is remembered while it runs, so the requests arriving meanwhile wait for it
  // instead of each reading: at an expiry a busy process had every request in flight read.
  const entry = { offset: findClockOffset(services.store.db, orgId), readAt: now };
  if (offsets.size >= OFFSET_CACHE_MAX) offsets.clear();
  offsets.set(orgId, entry);
  try {
    return await entry.offset;
  } catch (error) {
    if (offsets.get(orgId) === entry) offsets.delete(orgId);
    throw error;
  }
}

function toSandboxClock(services: Services, offsetMs: number): SandboxClock {
  return { now: toIso(services.clock.now() + offsetMs), advancedDays: offsetMs / DAY_MS };
}

/** This organisation's sandbox clock (sandbox only). */
export async function getSandboxClock(ctx: OrgContext): Promise<SandboxClock> {
  requireSandbox(ctx.services);
  return toSandboxClock(ctx.services, await findClockOffset(ctx.db, ctx.orgId));
}

/**
 * Moves this organisation's sandbox clock `days` forward (sandbox only) and, once that is
 * committed, wakes every job so what became due (renewals, retries, expiries) runs at once.
 */
export async function advanceSandboxClock(
  ctx: OrgContext,
  input: AdvanceSandboxClockRequest,
): Promise<SandboxClock> {
  const { services } = ctx;
  requireSandbox(services);
  const offset = await ctx.write(async (trx) => {
    const moved = await addClockOffset(trx, ctx.orgId, input.days * DAY_MS, services.clock.now());
    if (moved > MAX_ADVANCED_DAYS * DAY_MS) {
      throw new ApiError(
        "parameter_invalid",
        `The sandbox clock may run at most ${MAX_ADVANCED_DAYS} days ahead; it is already ` +
          `${(moved / DAY_MS) - input.days} days ahead.`,
        { param: "days" },
      );
    }
    // NOTE: jobs read each organisation's offset from the database, so they must look after
    // the commit; waking them from here could let them run on the old time.
    afterCommit(trx, () => {
      offsetsOf(services).delete(ctx.orgId);
      services.scheduler.wakeAll(services.clock.now());
    });
    return moved;
  });
  return toSandboxClock(services, offset);
}
