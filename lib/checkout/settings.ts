import type { Kysely } from "kysely";
import { findAllowedOrigins, saveAllowedOrigins } from "../../db/checkout_settings.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseAllowedOrigin } from "./origins.ts";
import { type CheckoutSettings, MAX_ALLOWED_ORIGINS } from "./schemas.ts";

async function allowedOrigins(db: Kysely<EnvironmentSchema>, orgId: number): Promise<string[]> {
  return JSON.parse(await findAllowedOrigins(db, orgId) ?? "[]");
}

/** The organisation's checkout settings: which origins may embed its checkout. */
export async function getCheckoutSettings(ctx: OrgContext): Promise<CheckoutSettings> {
  return { allowedOrigins: await allowedOrigins(ctx.db, ctx.orgId) };
}

/** Replaces the allowlist; each entry is validated and normalised (lower case, no default port). */
export async function putCheckoutSettings(
  ctx: OrgContext,
  input: CheckoutSettings,
): Promise<CheckoutSettings> {
  const environment = ctx.services.environment;
  const origins = [
    ...new Set(
      input.allowedOrigins.map((raw, index) =>
        parseAllowedOrigin(raw, environment, `allowedOrigins.${index}`)
      ),
    ),
  ];
  await ctx.write((trx) => saveAllowedOrigins(trx, ctx.orgId, JSON.stringify(origins), ctx.now()));
  return { allowedOrigins: origins };
}

/**
 * Puts one origin on the allowlist, validated and normalised, unless it is there already; in one
 * write, so an edit made meanwhile is kept.
 */
export async function addAllowedOrigin(
  ctx: OrgContext,
  raw: string,
  param: string,
): Promise<string> {
  const origin = parseAllowedOrigin(raw, ctx.services.environment, param);
  await ctx.write(async (trx) => {
    const origins = await allowedOrigins(trx, ctx.orgId);
    if (origins.includes(origin)) return;
    if (origins.length >= MAX_ALLOWED_ORIGINS) {
      throw new ApiError(
        "parameter_invalid",
        `'${param}': the allowlist has ${MAX_ALLOWED_ORIGINS} origins already; remove one first.`,
        { param },
      );
    }
    const saved = JSON.stringify([...origins, origin]);
    await saveAllowedOrigins(trx, ctx.orgId, saved, ctx.now());
  });
  return origin;
}

/** Tells whether `origin` is on the organisation's allowlist. */
export async function isOriginAllowed(
  db: Kysely<EnvironmentSchema>,
  orgId: number,
  origin: string,
): Promise<boolean> {
  return (await allowedOrigins(db, orgId)).includes(origin);
}
