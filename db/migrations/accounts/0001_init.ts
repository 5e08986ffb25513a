import { type Kysely, sql } from "kysely";

/** Organisations with their plan, users, and memberships with a role. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("organisations")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("slug", "text", (col) => col.notNull().unique())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn(
      "plan",
      "text",
      (col) => col.notNull().check(sql`plan IN ('FREE', 'BASIC', 'PRO', 'ENTERPRISE')`),
    )
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .execute();

  await db.schema.createTable("users")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("email", "text", (col) => col.notNull().unique())
    .addColumn("name", "text")
    .addColumn("password_hash", "text", (col) => col.notNull())
    .addColumn("password_change_required", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .execute();

  await db.schema.createTable("memberships")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn(
      "org_id",
      "integer",
      (col) => col.notNull().references("organisations.id").onDelete("cascade"),
    )
    .addColumn(
      "user_id",
      "integer",
      (col) => col.notNull().references("users.id").onDelete("cascade"),
    )
    .addColumn(
      "role",
      "text",
      (col) => col.notNull().check(sql`role IN ('OWNER', 'ADMIN', 'MEMBER')`),
    )
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addUniqueConstraint("memberships_org_user", ["org_id", "user_id"])
    .execute();
  await db.schema.createIndex("memberships_user").on("memberships").column("user_id").execute();
}
