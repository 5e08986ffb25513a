import type { Role } from "../../../lib/plans.ts";

/** What each role may do, in a sentence. */
export const ROLE_HINT: Record<Role, string> = {
  OWNER: "Everything, including owners and the team",
  ADMIN: "Developers, refunds and the team",
  MEMBER: "Offers and payments",
};

/** A role as people read it: "Owner", "Admin", "Member". */
export function roleLabel(role: string): string {
  return role.charAt(0) + role.slice(1).toLowerCase();
}
