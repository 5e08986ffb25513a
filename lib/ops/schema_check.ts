import { migrate, openStore } from "../../db/client.ts";
import { openFile, type SchemaObject, schemaObjects } from "../../db/inspect.ts";
import type { Migration } from "../../db/migrations/mod.ts";
import { removeDatabaseFiles } from "./durable_files.ts";

/**
 * The statement as it means, not as it is spelled: SQLite keeps the text a migration sent, and
 * another version of the query builder may quote or space it differently.
 */
function normalise(sql: string | null): string {
  return (sql ?? "").replace(/["`[\]]/g, "").replace(/\s+/g, " ")
    .replace(/\s*([(),=])\s*/g, "$1").trim().toLowerCase();
}

async function objectsOf(path: string): Promise<SchemaObject[]> {
  const connection = openFile(path);
  try {
    return await schemaObjects(connection);
  } finally {
    connection.close();
  }
}

/**
 * The schema Paystead's `migrations` named `applied` make, on a fresh database made at `scratch`
 * and removed (with SQLite's files) before this returns.
 */
async function madeBy(
  migrations: Record<string, Migration>,
  applied: string[],
  scratch: string,
): Promise<SchemaObject[]> {
  try {
    const store = await openStore(`file:${scratch}`);
    try {
      await migrate(store, Object.fromEntries(applied.map((name) => [name, migrations[name]])));
    } finally {
      await store.close();
    }
    return await objectsOf(scratch);
  } finally {
    await removeDatabaseFiles(scratch);
  }
}

/**
 * How the database at `path` differs from what Paystead's migrations make at its migration
 * level (`applied`): one phrase per table, index, trigger or view that is extra, missing or
 * changed; empty when it is exactly Paystead's. A planted trigger that rewrites amounts, or a
 * dropped unique index, is found here before the database is trusted. The fresh database is made
 * at `scratch`, a path the caller's leftovers sweep knows.
 */
export async function schemaDifferences(
  path: string,
  migrations: Record<string, Migration>,
  applied: string[],
  scratch: string,
): Promise<string[]> {
  const key = (object: SchemaObject) => `${object.type} ${object.name}`;
  const expected = new Map((await madeBy(migrations, applied, scratch)).map((o) => [key(o), o]));
  const actual = new Map((await objectsOf(path)).map((o) => [key(o), o]));
  const differences: string[] = [];
  for (const [name, object] of actual) {
    const made = expected.get(name);
    if (!made) differences.push(`${name} is not made by Paystead's migrations`);
    else if (normalise(made.sql) !== normalise(object.sql)) {
      differences.push(`${name} differs from what Paystead's migrations make`);
    }
  }
  for (const name of expected.keys()) {
    if (!actual.has(name)) differences.push(`${name} is missing`);
  }
  return differences;
}
