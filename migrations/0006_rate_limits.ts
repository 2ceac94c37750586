import type { Kysely } from "kysely";

// `any`: a migration is frozen in time and must not depend on today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Rate-limit windows shared by every process on PostgreSQL (rate-limiter-flexible's PostgreSQL
 * store, in its own layout: the key, the hits counted, the window's end in epoch ms). SQLite runs
 * one process and keeps its windows in memory; the table exists there too so both schemas match.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expire", "bigint")
    .execute();
  await db.schema.createIndex("rate_limits_expire_idx").on("rate_limits").column("expire").execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable("rate_limits").execute();
}
