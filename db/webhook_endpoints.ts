import type { Insertable, Kysely, Updateable } from "kysely";
import type { SqlStatement } from "./libsql_dialect.ts";
import type {
  EnvironmentSchema,
  NewWebhookEndpoint,
  WebhookEndpointRecordRow,
  WebhookEndpointRecordsTable,
  WebhookEndpointRow,
  WebhookEndpointsTable,
} from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** Inserts a webhook endpoint. */
export function insertWebhookEndpoint(
  db: Db,
  values: NewWebhookEndpoint,
): Promise<WebhookEndpointRow> {
  return db.insertInto("webhook_endpoints").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

/** Finds an organisation's endpoint by public id; deleted endpoints are not found. */
export function findWebhookEndpoint(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom("webhook_endpoints").selectAll()
    .where("org_id", "=", orgId).where("public_id", "=", publicId)
    .where("deleted_at", "is", null).executeTakeFirst();
}

/** Lists an organisation's endpoints newest first, after a row id. */
export function listWebhookEndpoints(
  db: Db,
  orgId: number,
  filter: { beforeId?: number; limit: number },
): Promise<WebhookEndpointRow[]> {
  let query = db.selectFrom("webhook_endpoints").selectAll()
    .where("org_id", "=", orgId).where("deleted_at", "is", null);
  if (filter.beforeId !== undefined) query = query.where("id", "<", filter.beforeId);
  return query.orderBy("id", "desc").limit(filter.limit).execute();
}

/** How many endpoints an organisation has (deleted ones excluded). */
export async function countWebhookEndpoints(db: Db, orgId: number): Promise<number> {
  const row = await db.selectFrom("webhook_endpoints")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("org_id", "=", orgId).where("deleted_at", "is", null).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Updates an endpoint. */
export function updateWebhookEndpoint(
  db: Db,
  id: number,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<WebhookEndpointRow | undefined> {
  return db.updateTable("webhook_endpoints").set(changes).where("id", "=", id).returningAll()
    .executeTakeFirst();
}

/** What recording attempt results needs to know of an endpoint's health. */
type EndpointHealth = Pick<
  WebhookEndpointRow,
  "id" | "public_id" | "org_id" | "url" | "enabled" | "deleted_at" | "failing_since"
>;

/** The health fields of endpoints, by internal id. */
export function findEndpointHealth(db: Db, ids: readonly number[]): Promise<EndpointHealth[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("webhook_endpoints")
    .select(["id", "public_id", "org_id", "url", "enabled", "deleted_at", "failing_since"])
    .where("id", "in", ids).execute();
}

/**
 * Sets when an enabled endpoint's run of failures began (null: it is healthy), unless it changed
 * since it read `from`.
 */
export function setFailingSinceStatement(
  id: number,
  from: number | null,
  to: number | null,
): SqlStatement {
  return {
    sql: `UPDATE webhook_endpoints SET failing_since = ?
      WHERE id = ? AND failing_since IS ? AND enabled = 1 AND deleted_at IS NULL`,
    args: [to, id, from],
  };
}

/** Enabled, undeleted endpoints of the given organisations: the candidates of a fan-out. */
export function findEnabledEndpoints(
  db: Db,
  orgIds: readonly number[],
): Promise<WebhookEndpointRow[]> {
  if (orgIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("webhook_endpoints").selectAll()
    .where("org_id", "in", orgIds).where("enabled", "=", 1).where("deleted_at", "is", null)
    .orderBy("id").execute();
}

/** Inserts a record of something that happened to an endpoint (an automatic disable). */
export function insertWebhookEndpointRecord(
  db: Db,
  values: Insertable<WebhookEndpointRecordsTable>,
): Promise<WebhookEndpointRecordRow> {
  return db.insertInto("webhook_endpoint_records").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

/** Finds one of an endpoint's records by public id. */
export function findWebhookEndpointRecord(
  db: Db,
  endpointId: number,
  publicId: string,
): Promise<WebhookEndpointRecordRow | undefined> {
  return db.selectFrom("webhook_endpoint_records").selectAll()
    .where("endpoint_id", "=", endpointId).where("public_id", "=", publicId).executeTakeFirst();
}

/** Lists an endpoint's records newest first, after a row id. */
export function listWebhookEndpointRecords(
  db: Db,
  endpointId: number,
  filter: { beforeId?: number; limit: number },
): Promise<WebhookEndpointRecordRow[]> {
  let query = db.selectFrom("webhook_endpoint_records").selectAll()
    .where("endpoint_id", "=", endpointId);
  if (filter.beforeId !== undefined) query = query.where("id", "<", filter.beforeId);
  return query.orderBy("id", "desc").limit(filter.limit).execute();
}
