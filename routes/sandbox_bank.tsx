import { Hono } from "hono";
import { loadSandboxBankPage } from "../lib/checkout/sandbox_bank_page.ts";
import type { Services } from "../lib/context.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { settleSandboxRedirect } from "../lib/payments/sandbox_redirect.ts";
import { limitCodeForm } from "./code_form.ts";
import { langQuery, languageRequest } from "./customer_language.ts";
import type { AppEnv } from "./env.ts";
import { renderPage } from "./html.tsx";
import { sameOriginOnly } from "./middleware/same_origin.ts";
import { SandboxBankView } from "./sandbox_bank_page.tsx";

const ACTIONS = { pay: "succeeded", decline: "declined", leave: null } as const;

/**
 * The sandbox's bank (`/sandbox/redirect/{attemptId}`): where a simulator's redirect attempt
 * sends the customer. Its buttons decide the attempt as a bank's notification would, or leave it
 * undecided, and send the browser to the payment's return page. Unknown outside the sandbox.
 */
export function createSandboxBankPages(services: Services): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/sandbox/redirect/:attemptId", async (c) => {
      const attemptId = c.req.param("attemptId");
      const page = await loadSandboxBankPage(services, attemptId, languageRequest(c));
      if (!page) throw notFound("attempt", attemptId);
      return renderPage(c, <SandboxBankView page={page} lang={langQuery(c)} />);
    })
    .post("/sandbox/redirect/:attemptId", sameOriginOnly(services), limitCodeForm, async (c) => {
      const attemptId = c.req.param("attemptId");
      const page = await loadSandboxBankPage(services, attemptId, languageRequest(c));
      if (!page) throw notFound("attempt", attemptId);
      const action = (await c.req.parseBody()).action;
      if (typeof action !== "string" || !Object.hasOwn(ACTIONS, action)) {
        throw new ApiError("parameter_invalid", "Choose pay, decline or leave.", {
          param: "action",
        });
      }
      const result = ACTIONS[action as keyof typeof ACTIONS];
      if (result !== null && page.decidable) {
        await settleSandboxRedirect(services, attemptId, result);
      }
      return c.redirect(`/pay/${page.paymentId}/return${langQuery(c)}`, 303);
    });
}
