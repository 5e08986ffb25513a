import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  createOffer,
  CreateOfferRequest,
  getOffer,
  listOffers,
  ListOffersQuery,
  Offer,
  toOffer,
  updateOffer,
  UpdateOfferRequest,
} from "../../lib/offers.ts";
import { offerQrSvg } from "../../lib/offer_codes.ts";
import {
  createApiRouter,
  errors,
  idempotencyHeader,
  idParam,
  json,
  jsonBody,
  listPage,
  listResponse,
} from "./openapi.ts";
import { answered } from "./answers.ts";

const tags = ["Offers"];
const QrIdParam = idParam("qrId", "qr_4f9TqYcW2mJx8bN3kL6pR1sV");

/** `/api/v1/qr`: offers. */
export const offers = createApiRouter()
  .openapi(
    createRoute({
      method: "post",
      path: "/",
      operationId: "createOffer",
      summary: "Create an offer",
      description:
        "Creates an offer: what a customer pays for. Its `qrId` starts payments and checkout sessions; with `recurring`, each successful payment starts a subscription, renewed by a charge or, when the payment provider cannot charge a stored method, by a pay link e-mailed to the customer.",
      tags,
      parameters: [idempotencyHeader],
      request: { body: jsonBody(CreateOfferRequest) },
      responses: {
        201: { description: "The new offer.", ...json(Offer) },
        ...errors(400, 401, 403, 409),
      },
    }),
    (c) => answered(c, 201, (ctx) => createOffer(ctx, c.req.valid("json")), toOffer),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "listOffers",
      summary: "List offers",
      description: "The offers of this organisation and environment, newest first.",
      tags,
      request: { query: ListOffersQuery },
      responses: {
        200: listResponse("Offers, newest first.", Offer, "OfferList"),
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const page = await listOffers(c.get("ctx"), c.req.valid("query"));
      return c.json(listPage(page, toOffer), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{qrId}",
      operationId: "getOffer",
      summary: "Get an offer",
      description: "One offer by its `qrId`.",
      tags,
      request: { params: QrIdParam },
      responses: { 200: { description: "The offer.", ...json(Offer) }, ...errors(401, 403, 404) },
    }),
    async (c) => c.json(toOffer(await getOffer(c.get("ctx"), c.req.valid("param").qrId)), 200),
  )
  .openapi(
    createRoute({
      method: "patch",
      path: "/{qrId}",
      operationId: "updateOffer",
      summary: "Update or deactivate an offer",
      description:
        "Send `active: false` to deactivate: its QR code then shows 'no longer available'.",
      tags,
      request: { params: QrIdParam, body: jsonBody(UpdateOfferRequest) },
      responses: {
        200: { description: "The updated offer.", ...json(Offer) },
        ...errors(400, 401, 403, 404),
      },
    }),
    async (c) => {
      const offer = await updateOffer(c.get("ctx"), c.req.valid("param").qrId, c.req.valid("json"));
      return c.json(toOffer(offer), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{qrId}/code.svg",
      operationId: "getOfferQrCode",
      summary: "Get the offer's QR code",
      description: "An SVG QR code of the offer's public pay URL `{base}/o/{qrId}`.",
      tags,
      request: { params: QrIdParam },
      responses: {
        200: { description: "The QR code.", content: { "image/svg+xml": { schema: z.string() } } },
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const offer = await getOffer(c.get("ctx"), c.req.valid("param").qrId);
      const svg = await offerQrSvg(c.get("ctx").services.config.publicUrl, offer.public_id);
      return c.body(svg, 200, {
        "Content-Type": "image/svg+xml",
        "Cache-Control": "private, max-age=300",
      });
    },
  );
