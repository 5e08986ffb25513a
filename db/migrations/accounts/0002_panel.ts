import { type Kysely, sql } from "kysely";

/**
 * The merchant panel: sign-in sessions, sign-in throttling and team invitations. Every time here
 * is system time (sessions and locks are not organisation data, so no sandbox clock applies).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // NOTE: only a SHA-256 of the session token is stored; the token lives in the cookie alone.
  await db.schema.createTable("panel_sessions")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn(
      "user_id",
      "integer",
      (col) => col.notNull().references("users.id").onDelete("cascade"),
    )
    .addColumn(
      "org_id",
      "integer",
      (col) => col.notNull().references("organisations.id").onDelete("cascade"),
    )
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("last_seen_at", "integer", (col) => col.notNull())
    .addColumn("expires_at", "integer", (col) => col.notNull())
    .addColumn("client_address", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("panel_sessions_user").on("panel_sessions").column("user_id")
    .execute();
  await db.schema.createIndex("panel_sessions_expiry").on("panel_sessions").column("expires_at")
    .execute();

  // One row per throttled subject: `account:<e-mail>` or `address:<client address>`.
  await db.schema.createTable("sign_in_throttle")
    .addColumn("subject", "text", (col) => col.primaryKey())
    .addColumn("failures", "integer", (col) => col.notNull())
    .addColumn("window_started_at", "integer", (col) => col.notNull())
    .addColumn("locked_until", "integer")
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("sign_in_throttle_updated").on("sign_in_throttle")
    .column("updated_at").execute();

  await db.schema.createTable("invitations")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn(
      "org_id",
      "integer",
      (col) => col.notNull().references("organisations.id").onDelete("cascade"),
    )
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn(
      "role",
      "text",
      (col) => col.notNull().check(sql`role IN ('OWNER', 'ADMIN', 'MEMBER')`),
    )
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn(
      "invited_by",
      "integer",
      (col) => col.references("users.id").onDelete("set null"),
    )
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("expires_at", "integer", (col) => col.notNull())
    .addColumn("accepted_at", "integer")
    .addColumn("revoked_at", "integer")
    .execute();
  // NOTE: one open invitation per address and organisation; a new one revokes the old first.
  await db.schema.createIndex("invitations_open").on("invitations")
    .columns(["org_id", "email"]).unique()
    .where(sql.ref("accepted_at"), "is", null).where(sql.ref("revoked_at"), "is", null)
    .execute();
}
