import type { Kysely } from "kysely";
import type { WebhookDeliveryRecord } from "./webhook_deliveries.ts";
import type { EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** A delivery with its event's public id and type, as an endpoint's delivery log lists it. */
type LoggedDelivery = WebhookDeliveryRecord & { event_type: string };

function selectLogged(db: Db) {
  return db.selectFrom("webhook_deliveries as d")
    .innerJoin("events as e", "e.id", "d.event_id")
    .innerJoin("webhook_endpoints as w", "w.id", "d.endpoint_id")
    .selectAll("d")
    .select([
      "e.public_id as event_public_id",
      "e.type as event_type",
      "w.public_id as endpoint_public_id",
    ]);
}

/** One of an endpoint's deliveries by public id. */
export function findEndpointDelivery(
  db: Db,
  endpointId: number,
  publicId: string,
): Promise<LoggedDelivery | undefined> {
  return selectLogged(db).where("d.endpoint_id", "=", endpointId)
    .where("d.public_id", "=", publicId).executeTakeFirst();
}

/** An endpoint's deliveries newest first, after a row id. */
export function listEndpointDeliveries(
  db: Db,
  endpointId: number,
  filter: { beforeId?: number; limit: number },
): Promise<LoggedDelivery[]> {
  let query = selectLogged(db).where("d.endpoint_id", "=", endpointId);
  if (filter.beforeId !== undefined) query = query.where("d.id", "<", filter.beforeId);
  return query.orderBy("d.id", "desc").limit(filter.limit).execute();
}
