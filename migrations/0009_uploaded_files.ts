import type { Kysely } from "kysely";
import { isPostgres } from "./portable";

// `any`: a migration is frozen in time and must not depend on today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Uploaded platform logos live in the database, not on one VM's disk: every process behind Fly's
 * proxy serves the same logos, and backups (the SQLite file, or the provider's PostgreSQL backups)
 * carry them. `name` is the file name of its public URL (`/uploads/<name>`).
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable("uploaded_files")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("bytes", isPostgres(db) ? "bytea" : "blob", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable("uploaded_files").execute();
}
