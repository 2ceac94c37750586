import { closeDb, getDb, getSqlite, type DB } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { clearSettingsCache } from "~db/repositories/settings.server";
import type { NewPlatform } from "~db/schema";
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

/** Inserts a platform with sensible defaults; returns its row. */
export async function insertPlatform(db: DB, overrides: Partial<NewPlatform> = {}) {
  const slug = overrides.slug ?? `p-${Math.random().toString(36).slice(2, 8)}`;
  return db
    .insertInto("platforms")
    .values({
      name: slug.toUpperCase(),
      slug,
      description: "Plateforme de test",
      gradient_from: "#3b82f6",
      gradient_to: "#8b5cf6",
      hosts: `${slug}.example`,
      referral_url_template: `https://${slug}.example/r/{code}`,
      url_rules: JSON.stringify([{ type: "path", after: "r" }]),
      created_at: new Date().toISOString(),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
