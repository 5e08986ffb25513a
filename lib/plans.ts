/** Plans, lowest first. */
export const PLANS = ["FREE", "BASIC", "PRO", "ENTERPRISE"] as const;
export type Plan = (typeof PLANS)[number];

/** Roles within an organisation. */
export const ROLES = ["OWNER", "ADMIN", "MEMBER"] as const;
export type Role = (typeof ROLES)[number];

/** Tells whether `plan` is `minimum` or a higher plan. */
export function planAtLeast(plan: Plan, minimum: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(minimum);
}

/** The lowest plan that may use the API. */
export const API_MINIMUM_PLAN: Plan = "BASIC";
