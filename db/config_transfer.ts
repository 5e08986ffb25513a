import type { Kysely } from "kysely";
import type {
  ConfigImportMappingsTable,
  EnvironmentSchema,
  OfferRow,
  WebhookEndpointRow,
} from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;
type MappingKind = ConfigImportMappingsTable["kind"];

/** Every offer of an organisation, oldest first (an export lists them all). */
export function listAllOffers(db: Db, orgId: number): Promise<OfferRow[]> {
  return db.selectFrom("offers").selectAll().where("org_id", "=", orgId).orderBy("id").execute();
}

/** Every endpoint of an organisation that is not deleted, oldest first. */
export function listAllWebhookEndpoints(db: Db, orgId: number): Promise<WebhookEndpointRow[]> {
  return db.selectFrom("webhook_endpoints").selectAll().where("org_id", "=", orgId)
    .where("deleted_at", "is", null).orderBy("id").execute();
}

/** The id an earlier import gave the object `sourceId` of the other environment. */
export async function findImportMapping(
  db: Db,
  orgId: number,
  kind: MappingKind,
  sourceId: string,
): Promise<string | undefined> {
  const row = await db.selectFrom("config_import_mappings").select("target_id")
    .where("org_id", "=", orgId).where("kind", "=", kind).where("source_id", "=", sourceId)
    .executeTakeFirst();
  return row?.target_id;
}

/** Records (or moves) the mapping of `sourceId` to `targetId`. */
export async function saveImportMapping(
  db: Db,
  values: { orgId: number; kind: MappingKind; sourceId: string; targetId: string; now: number },
): Promise<void> {
  await db.insertInto("config_import_mappings").values({
    org_id: values.orgId,
    kind: values.kind,
    source_id: values.sourceId,
    target_id: values.targetId,
    created_at: values.now,
  }).onConflict((oc) =>
    oc.columns(["org_id", "kind", "source_id"]).doUpdateSet({ target_id: values.targetId })
  ).execute();
}
