import { Hono } from "hono";
import { MessagePage } from "../components/MessagePage.tsx";
import { findPublicCheckoutSession } from "../lib/checkout/mod.ts";
import {
  attemptSessionCode,
  chooseSessionMethod,
  loadSessionPage,
  loadSessionState,
} from "../lib/checkout/pages.ts";
import { providerPageOrigins } from "../lib/payments/methods.ts";
import type { Services } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { translator } from "../lib/i18n/mod.ts";
import { CheckoutPage } from "./checkout_page.tsx";
import {
  limitCodeForm,
  readChoiceSubmission,
  readCodeSubmission,
  sendBackDetails,
} from "./code_form.ts";
import { langQuery, languageRequest, switchLink } from "./customer_language.ts";
import type { AppEnv } from "./env.ts";
import { renderPage } from "./html.tsx";
import { clientAddress } from "./middleware/client_address.ts";
import { sameOriginOnly } from "./middleware/same_origin.ts";

/**
 * The checkout iframe (`embedUrl`): the page, framed only by the session's embedLink origin,
 * its state for the island, and code submission (CSRF-checked, rate-limited per session). Every
 * page speaks the customer's language and keeps `?lang`.
 */
export function createEmbeddedCheckoutPages(services: Services): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/checkout/:sessionId", async (c) => {
      const sessionId = c.req.param("sessionId");
      const page = await loadSessionPage(services, sessionId, languageRequest(c));
      if (!page) throw notFound("checkout session", sessionId);
      if (!page.embedAllowed) {
        // The merchant took the origin off the allowlist: the session may not be framed anymore.
        const { t } = translator(page.language);
        return renderPage(
          c,
          <MessagePage
            title={t("embed.notAllowedTitle")}
            tone="error"
            lang={page.language}
            switchTo={switchLink(`/checkout/${sessionId}`, page.language)}
          >
            <p>{t("embed.notAllowedText", { merchant: page.merchantName })}</p>
          </MessagePage>,
          { status: 403 },
        );
      }
      return renderPage(c, <CheckoutPage page={page} lang={langQuery(c)} />, {
        frameAncestor: page.session.embed_origin,
        formTargets: providerPageOrigins(services),
      });
    })
    .get("/checkout/:sessionId/state", async (c) => {
      const state = await loadSessionState(services, c.req.param("sessionId"));
      if (!state) throw notFound("checkout session", c.req.param("sessionId"));
      c.header("Cache-Control", "no-store");
      return c.json(state);
    })
    .post("/checkout/:sessionId", sameOriginOnly(services), limitCodeForm, async (c) => {
      const sessionId = c.req.param("sessionId");
      const session = await findPublicCheckoutSession(services, sessionId);
      if (!session) throw notFound("checkout session", sessionId);
      const submission = await readCodeSubmission(c);
      const state = await sendBackDetails(
        submission,
        () =>
          attemptSessionCode(services, session, submission.code, {
            ip: clientAddress(c, services.config.trustedProxies),
            request: languageRequest(c),
          }, submission.details),
        async (entered) => {
          const page = (await loadSessionPage(services, sessionId, languageRequest(c)))!;
          return renderPage(c, <CheckoutPage page={page} lang={langQuery(c)} entered={entered} />, {
            status: 400,
            frameAncestor: page.session.embed_origin,
          });
        },
      );
      if (state instanceof Response) return state;
      // Without JavaScript the form posts here; send the browser back to the page (PRG).
      if (submission.fromForm) return c.redirect(`/checkout/${sessionId}${langQuery(c)}`, 303);
      c.header("Cache-Control", "no-store");
      return c.json(state);
    })
    .post("/checkout/:sessionId/redirect", sameOriginOnly(services), limitCodeForm, async (c) => {
      const sessionId = c.req.param("sessionId");
      const session = await findPublicCheckoutSession(services, sessionId);
      if (!session) throw notFound("checkout session", sessionId);
      const submission = await readChoiceSubmission(c);
      const chosen = await sendBackDetails(
        submission,
        () =>
          chooseSessionMethod(services, session, submission, {
            ip: clientAddress(c, services.config.trustedProxies),
            request: languageRequest(c),
          }, submission.details),
        async (entered) => {
          const page = (await loadSessionPage(services, sessionId, languageRequest(c)))!;
          return renderPage(c, <CheckoutPage page={page} lang={langQuery(c)} entered={entered} />, {
            status: 400,
            frameAncestor: page.session.embed_origin,
            formTargets: providerPageOrigins(services),
          });
        },
      );
      if (chosen instanceof Response) return chosen;
      c.header("Cache-Control", "no-store");
      // The form targets the top window (a bank cannot be framed); when the attempt ended at
      // once, the payment's return page says why and leads back to the shop.
      if (submission.fromForm) {
        const ended = chosen.paymentId === null
          ? `/checkout/${sessionId}${langQuery(c)}`
          : `/pay/${chosen.paymentId}/return${langQuery(c)}`;
        return c.redirect(chosen.redirectUrl ?? ended, 303);
      }
      return c.json({
        redirectUrl: chosen.redirectUrl,
        state: await loadSessionState(services, sessionId),
      });
    });
}
