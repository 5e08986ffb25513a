import { decide, type PanelAction, type QuickstartAccess } from "../accounts/access.ts";
import type { Plan } from "../plans.ts";

/** The lowest plan on which an owner may do `action`, as the access rules say. */
export function planFor(action: PanelAction, quickstartAccess: QuickstartAccess): Plan {
  const decision = decide(action, { role: "OWNER", plan: "FREE" }, quickstartAccess);
  return decision.allowed || decision.reason !== "plan" ? "FREE" : decision.plan;
}
