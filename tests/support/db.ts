import { closeDb, getDb, getSqlite, type DB } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { clearSettingsCache } from "~db/repositories/settings.server";
import { seedBase } from "~db/seed.server";
import { resetEnvCache } from "~/utils/env.server";
import { tmpPath } from "./paths";

/**
 * Points the app's one database handle at a new SQLite file, migrated (and seeded unless asked
 * not to). Call in beforeEach: every test gets its own real database.
 */
export async function useFreshDatabase(options: { seed?: boolean } = {}): Promise<{ db: DB; file: string }> {
  await closeDb();
  const file = tmpPath("test.db");
  process.env.DATABASE_URL = `file:${file}`;
  resetEnvCache();
  clearSettingsCache();
  const db = getDb();
  await migrateToLatest(db);
  if (options.seed !== false) await seedBase(db);
  return { db, file };
}

export { closeDb, getSqlite };
export type { DB };
