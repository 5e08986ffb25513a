import type { MiddlewareHandler } from "hono";
import type { Services } from "../../../lib/context.ts";
import { ApiError } from "../../../lib/errors.ts";
import { decide, type PanelAction } from "../../../lib/accounts/access.ts";
import { wantsPage } from "../../error_pages.ts";
import { type PanelContext, type PanelEnv, subjectOf } from "./context.ts";

/**
 * Guards routes with an access rule. A page refused for the plan shows `upgrade` (what the plan
 * would give) with 403; anything else refused is the 403 error.
 */
export function allow(
  services: Services,
  action: PanelAction,
  upgrade?: (c: PanelContext) => Promise<Response>,
): MiddlewareHandler<PanelEnv> {
  return (c, next) => {
    const session = c.get("session");
    const decision = decide(action, subjectOf(session), services.config.quickstartAccess);
    if (decision.allowed) return next();
    if (
      decision.reason === "plan" && upgrade && c.req.method === "GET" && wantsPage(c)
    ) {
      return upgrade(c);
    }
    if (decision.reason === "role") {
      const roles = decision.roles.map((role) => `${role.toLowerCase()}s`).join(" and ");
      throw new ApiError(
        "role_required",
        `This part of the panel is for ${roles}; you are a ${session.role.toLowerCase()} of ` +
          `${session.org.name}. Ask an owner if you need it.`,
      );
    }
    throw new ApiError(
      "plan_required",
      `This needs plan ${decision.plan} or higher; ${session.org.name} is on ${session.org.plan}.`,
    );
  };
}
