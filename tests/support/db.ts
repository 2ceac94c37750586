import { closeDb, getDb, getSqlite, type DB } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { clearSettingsCache } from "~db/repositories/settings.server";
import { seedBase } from "~db/seed.server";
import { resetEnvCache } from "~/utils/env.server";
import { tmpPath } from "./paths";
import { postgresDatabaseFor } from "./postgres";

/**
 * Points the app's one database handle at a new SQLite file, migrated (and seeded unless asked
 * not to); on the PostgreSQL pass, at a new database of the pass's cluster instead. Call in
 * beforeEach: every test gets its own real database.
 */
export async function useFreshDatabase(options: { seed?: boolean } = {}): Promise<{ db: DB; file: string; url: string }> {
  await closeDb();
  const file = tmpPath("test.db");
  // On PostgreSQL the file name stands for the database: startServer({ DATABASE_FILE: file }) and
  // openTestDb(file) reach the same one.
  process.env.DATABASE_URL = process.env.TEST_POSTGRES_URL ? await postgresDatabaseFor(file) : `file:${file}`;
  resetEnvCache();
  clearSettingsCache();
  const db = getDb();
  await migrateToLatest(db);
  if (options.seed !== false) await seedBase(db);
  return { db, file, url: process.env.DATABASE_URL };
}

/** True on the PostgreSQL pass (vitest.postgres.config.ts): SQLite-only checks skip themselves. */
export const onPostgres = Boolean(process.env.TEST_POSTGRES_URL);

export { closeDb, getSqlite };
export type { DB };
