import { Hono } from "hono";
import { h } from "preact";
import type { Services } from "../../../lib/context.ts";
import { offerQrPng, offerQrSvg } from "../../../lib/offer_codes.ts";
import { createOffer, getOffer, updateOffer } from "../../../lib/offers.ts";
import {
  loadOfferList,
  offerCreateRequestOf,
  offerUpdateRequestOf,
} from "../../../lib/panel/offers.ts";
import { allow } from "../kit/access.ts";
import { orgCtx, type PanelEnv, translatorOf } from "../kit/context.ts";
import { field, readForm, redirectWith, runFormAction } from "../kit/forms.ts";
import { renderPanel } from "../kit/render.tsx";
import { OfferListPage } from "./pages.tsx";
import { canManage, renderNewOffer, renderOffer } from "./render.ts";

/** Offers, at /panel/offers: the list, creating, editing and deactivating, and each QR code. */
export function createOfferArea(services: Services): Hono<PanelEnv> {
  const publicUrl = services.config.publicUrl;
  return new Hono<PanelEnv>()
    .get("/", allow(services, "offers.view"), async (c) => {
      const list = await loadOfferList(orgCtx(c), {
        active: c.req.query("active"),
        startingAfter: c.req.query("startingAfter"),
      });
      return renderPanel(services, c, {
        title: translatorOf(c).t("panel.offers.title"),
        current: "offers",
        body: h(OfferListPage, { ...list, manage: canManage(services, c) }),
      });
    })
    .get("/new", allow(services, "offers.manage"), (c) => renderNewOffer(services, c, {}, null))
    .post("/", allow(services, "offers.manage"), async (c) => {
      const form = await readForm(c);
      const result = await runFormAction(
        c,
        () => createOffer(orgCtx(c), offerCreateRequestOf((name) => field(form, name))),
      );
      if (!result.ok) {
        return renderNewOffer(services, c, form, result.problem, result.problem.status);
      }
      return redirectWith(c, `/panel/offers/${result.value.public_id}`, "created");
    })
    .get(
      "/:qrId",
      allow(services, "offers.view"),
      (c) => renderOffer(services, c, c.req.param("qrId"), {}, null),
    )
    .post("/:qrId", allow(services, "offers.manage"), async (c) => {
      const ctx = orgCtx(c);
      const offer = await getOffer(ctx, c.req.param("qrId"));
      const form = await readForm(c);
      const result = await runFormAction(
        c,
        () => updateOffer(ctx, offer.public_id, offerUpdateRequestOf((name) => field(form, name))),
      );
      if (!result.ok) {
        return renderOffer(
          services,
          c,
          offer.public_id,
          form,
          result.problem,
          result.problem.status,
        );
      }
      return redirectWith(c, `/panel/offers/${offer.public_id}`, "saved");
    })
    .get("/:qrId/qr.svg", allow(services, "offers.view"), async (c) => {
      const offer = await getOffer(orgCtx(c), c.req.param("qrId"));
      const headers: Record<string, string> = {
        "Content-Type": "image/svg+xml",
        "Cache-Control": "private, max-age=300",
        "X-Content-Type-Options": "nosniff",
      };
      if (c.req.query("download")) {
        headers["Content-Disposition"] = `attachment; filename="${offer.public_id}.svg"`;
      }
      return c.body(await offerQrSvg(publicUrl, offer.public_id), 200, headers);
    })
    .get("/:qrId/qr.png", allow(services, "offers.view"), async (c) => {
      const offer = await getOffer(orgCtx(c), c.req.param("qrId"));
      const png = await offerQrPng(publicUrl, offer.public_id);
      return c.body(png.slice().buffer as ArrayBuffer, 200, {
        "Content-Type": "image/png",
        "Cache-Control": "private, max-age=300",
        "Content-Disposition": `${
          c.req.query("download") ? "attachment" : "inline"
        }; filename="${offer.public_id}.png"`,
        "X-Content-Type-Options": "nosniff",
      });
    });
}
