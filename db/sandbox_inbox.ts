import type { Kysely } from "kysely";
import type {
  EnvironmentSchema,
  SandboxInboxRequestRow,
  SandboxInboxRow,
  WebhookEndpointRow,
} from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** An organisation's sandbox inbox, if it has one. */
export function findInboxOfOrganisation(
  db: Db,
  orgId: number,
): Promise<SandboxInboxRow | undefined> {
  return db.selectFrom("sandbox_inboxes").selectAll().where("org_id", "=", orgId)
    .executeTakeFirst();
}

/** An inbox by its public id (the capability in its URL). */
export function findInboxByPublicId(
  db: Db,
  publicId: string,
): Promise<SandboxInboxRow | undefined> {
  return db.selectFrom("sandbox_inboxes").selectAll().where("public_id", "=", publicId)
    .executeTakeFirst();
}

/** Inserts an inbox. */
export function insertInbox(db: Db, values: Omit<SandboxInboxRow, "id">): Promise<SandboxInboxRow> {
  return db.insertInto("sandbox_inboxes").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Stores a received request and drops all but the newest `keep` of the inbox. */
export async function insertInboxRequest(
  db: Db,
  values: Omit<SandboxInboxRequestRow, "id">,
  keep: number,
): Promise<void> {
  await db.insertInto("sandbox_inbox_requests").values(values).execute();
  await db.deleteFrom("sandbox_inbox_requests").where("inbox_id", "=", values.inbox_id)
    .where("id", "not in", (eb) =>
      eb.selectFrom("sandbox_inbox_requests").select("id")
        .where("inbox_id", "=", values.inbox_id).orderBy("id", "desc").limit(keep))
    .execute();
}

/** The newest requests of an inbox. */
export function listInboxRequests(
  db: Db,
  inboxId: number,
  limit: number,
): Promise<SandboxInboxRequestRow[]> {
  return db.selectFrom("sandbox_inbox_requests").selectAll().where("inbox_id", "=", inboxId)
    .orderBy("id", "desc").limit(limit).execute();
}

/** An organisation's undeleted endpoints that deliver to `url`. */
export function findEndpointsWithUrl(
  db: Db,
  orgId: number,
  url: string,
): Promise<WebhookEndpointRow[]> {
  return db.selectFrom("webhook_endpoints").selectAll().where("org_id", "=", orgId)
    .where("url", "=", url).where("deleted_at", "is", null).orderBy("id", "desc").execute();
}
