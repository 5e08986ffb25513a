import { Hono } from "hono";
import { Island } from "../components/Island.tsx";
import { Layout } from "../components/Layout.tsx";
import { MessagePage } from "../components/MessagePage.tsx";
import { OrderSummary } from "../components/OrderSummary.tsx";
import { SandboxBanner, TestCodes } from "../components/Sandbox.tsx";
import { SecuredBy } from "../components/SecuredBy.tsx";
import { findPublicCheckoutSession } from "../lib/checkout/mod.ts";
import {
  attemptSessionCode,
  loadSessionPage,
  loadSessionState,
  type SessionPage,
} from "../lib/checkout/pages.ts";
import type { Services } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { limitCodeForm, readCodeSubmission } from "./code_form.ts";
import type { AppEnv } from "./env.ts";
import { renderPage } from "./html.tsx";
import { clientAddress } from "./middleware/client_address.ts";
import { sameOriginOnly } from "./middleware/same_origin.ts";

function CheckoutPage(props: { page: SessionPage }) {
  const { session, summary, state } = props.page;
  const path = `/checkout/${session.public_id}`;
  return (
    <Layout
      title={`${summary.title} · ${summary.merchantName}`}
      variant="embedded"
      islands
      refreshSeconds={props.page.refreshSeconds}
    >
      <main class="checkout checkout--embedded">
        {props.page.sandbox && <SandboxBanner />}
        <OrderSummary summary={summary} />
        <section class="pay" aria-label="Payment">
          <Island
            name="CodeEntry"
            props={{
              mode: "embedded",
              actionUrl: path,
              stateUrl: `${path}/state`,
              sessionId: session.public_id,
              parentOrigin: session.embed_origin,
              merchantName: summary.merchantName,
              amountLabel: summary.totalLabel,
              successUrl: session.success_url,
              cancelUrl: session.cancel_url,
              expiresInSeconds: props.page.expiresInSeconds,
              initial: state,
            }}
          />
        </section>
        {props.page.testCodes && <TestCodes />}
        <SecuredBy />
      </main>
    </Layout>
  );
}

/**
 * The checkout iframe (`embedUrl`): the page, framed only by the session's embedLink origin,
 * its state for the island, and code submission (CSRF-checked, rate-limited per session).
 */
export function createEmbeddedCheckoutPages(services: Services): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/checkout/:sessionId", async (c) => {
      const page = await loadSessionPage(services, c.req.param("sessionId"));
      if (!page) throw notFound("checkout session", c.req.param("sessionId"));
      if (!page.embedAllowed) {
        // The merchant took the origin off the allowlist: the session may not be framed anymore.
        return renderPage(
          c,
          <MessagePage title="This checkout is not available here" tone="error">
            <p>
              {page.summary.merchantName}{" "}
              no longer allows this checkout on the page that opened it. Go back to the shop and
              start again.
            </p>
          </MessagePage>,
          { status: 403 },
        );
      }
      return renderPage(c, <CheckoutPage page={page} />, {
        frameAncestor: page.session.embed_origin,
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
      const state = await attemptSessionCode(services, session, submission.code, {
        ip: clientAddress(c, services.config.trustedProxies),
      });
      // Without JavaScript the form posts here; send the browser back to the page (PRG).
      if (submission.fromForm) return c.redirect(`/checkout/${sessionId}`, 303);
      c.header("Cache-Control", "no-store");
      return c.json(state);
    });
}
