import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { can } from "../../../lib/accounts/access.ts";
import { loadOfferView } from "../../../lib/panel/offers.ts";
import { orgCtx, type PanelContext, subjectOf, translatorOf } from "../kit/context.ts";
import { type Form, type FormProblem, noticeOf } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { NewOfferPage, OfferDetailPage } from "./pages.tsx";

/** What an action's redirect may ask an offer's page to say. */
const NOTICES = {
  created: "panel.offers.created",
  saved: "panel.offers.saved",
} as const;

/** Tells whether the signed-in person may create and edit offers. */
export function canManage(services: Services, c: PanelContext): boolean {
  return can("offers.manage", subjectOf(c.get("session")), services.config.quickstartAccess);
}

/** The new-offer form, with what was typed and what is wrong with it. */
export function renderNewOffer(
  services: Services,
  c: PanelContext,
  values: Form,
  problem: FormProblem | null,
  status = 200,
): Promise<Response> {
  return renderPanel(services, c, {
    title: translatorOf(c).t("panel.offers.newTitle"),
    current: "offers",
    status,
    body: h(NewOfferPage, { csrf: c.get("session").csrfToken, values, problem }),
  });
}

/** An offer's page, its edit form with what was typed and what is wrong with it. */
export async function renderOffer(
  services: Services,
  c: PanelContext,
  qrId: string,
  values: Form,
  problem: FormProblem | null,
  status = 200,
): Promise<Response> {
  const view = await loadOfferView(orgCtx(c), qrId, services.config.publicUrl);
  return renderPanel(services, c, {
    title: view.offer.name,
    current: "offers",
    status,
    body: h(OfferDetailPage, {
      view,
      manage: canManage(services, c),
      notice: noticeOf(c, NOTICES),
      csrf: c.get("session").csrfToken,
      values,
      problem,
    }),
  });
}
