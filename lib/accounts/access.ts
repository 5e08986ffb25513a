import type { Config } from "../config.ts";
import { type Plan, planAtLeast, type Role } from "../plans.ts";

/**
 * Everything the panel lets someone see or do. Each page and each action names one of these,
 * and the server checks it on every request; hiding a link is only a courtesy.
 */
export const PANEL_ACTIONS = [
  "home.view",
  "payments.view",
  "payments.refund",
  "payments.email",
  "payments.records",
  "subscriptions.cancel",
  "offers.view",
  "offers.manage",
  "team.view",
  "team.manage",
  "account.manage",
  "reference.view",
  "developers",
  "quickstart",
] as const;
export type PanelAction = (typeof PANEL_ACTIONS)[number];

/** Who asks: their role in the organisation and the organisation's plan. */
interface Subject {
  role: Role;
  plan: Plan;
}

/** Which setting decides the Quick Start (CONTRACT.md: `QUICKSTART_ACCESS`). */
export type QuickstartAccess = Config["quickstartAccess"];

/** Allowed, or refused for the role (hidden, 403) or for the plan (an upgrade notice, 403). */
type Decision =
  | { allowed: true }
  | { allowed: false; reason: "role"; roles: readonly Role[] }
  | { allowed: false; reason: "plan"; plan: Plan };

interface Rule {
  roles: readonly Role[];
  plan: Plan;
}

const EVERYONE: readonly Role[] = ["OWNER", "ADMIN", "MEMBER"];
const OWNER_ADMIN: readonly Role[] = ["OWNER", "ADMIN"];

/**
 * The rules. FREE organisations use the panel without the API (offers with QR codes, payments),
 * so only Developers asks for a plan. Money leaving (refunds, ending a subscription) and the
 * team are for owners and admins; "integration is configured by the owner or an organisation
 * admin", so Developers is theirs alone, on BASIC or higher.
 */
const RULES: Record<Exclude<PanelAction, "quickstart">, Rule> = {
  "home.view": { roles: EVERYONE, plan: "FREE" },
  "payments.view": { roles: EVERYONE, plan: "FREE" },
  "payments.refund": { roles: OWNER_ADMIN, plan: "FREE" },
  // Sending a customer an e-mail again speaks for the business, as a refund does.
  "payments.email": { roles: OWNER_ADMIN, plan: "FREE" },
  // Exports and reconciliation are the API's, which FREE organisations do not have.
  "payments.records": { roles: OWNER_ADMIN, plan: "BASIC" },
  "subscriptions.cancel": { roles: OWNER_ADMIN, plan: "FREE" },
  "offers.view": { roles: EVERYONE, plan: "FREE" },
  "offers.manage": { roles: EVERYONE, plan: "FREE" },
  "team.view": { roles: EVERYONE, plan: "FREE" },
  "team.manage": { roles: OWNER_ADMIN, plan: "FREE" },
  "account.manage": { roles: EVERYONE, plan: "FREE" },
  "reference.view": { roles: EVERYONE, plan: "FREE" },
  "developers": { roles: OWNER_ADMIN, plan: "BASIC" },
};

/**
 * The Quick Start lives in Developers, so Developers' rule always holds; `plan` mode also asks
 * for ENTERPRISE, `role` mode asks nothing more than the OWNER/ADMIN role Developers has.
 */
function quickstartRule(access: QuickstartAccess): Rule {
  return access === "plan"
    ? { roles: OWNER_ADMIN, plan: "ENTERPRISE" }
    : { roles: OWNER_ADMIN, plan: "BASIC" };
}

/** Decides whether `subject` may do `action`; the role is judged before the plan. */
export function decide(
  action: PanelAction,
  subject: Subject,
  quickstartAccess: QuickstartAccess,
): Decision {
  const rule = action === "quickstart" ? quickstartRule(quickstartAccess) : RULES[action];
  if (!rule.roles.includes(subject.role)) {
    return { allowed: false, reason: "role", roles: rule.roles };
  }
  if (!planAtLeast(subject.plan, rule.plan)) {
    return { allowed: false, reason: "plan", plan: rule.plan };
  }
  return { allowed: true };
}

/** Tells whether `subject` may do `action`. */
export function can(
  action: PanelAction,
  subject: Subject,
  quickstartAccess: QuickstartAccess,
): boolean {
  return decide(action, subject, quickstartAccess).allowed;
}

/**
 * Whether an `actor` may give someone the role `to` (an invitation or a role change) or, with
 * `to` null, remove them, when they now hold `from` (null for someone not yet a member). Admins
 * manage admins and members; only an owner makes, unmakes or removes an owner.
 */
export function canManageMember(actor: Role, from: Role | null, to: Role | null): boolean {
  if (actor === "OWNER") return true;
  if (actor === "ADMIN") return from !== "OWNER" && to !== "OWNER";
  return false;
}
