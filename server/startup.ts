import { applyStagedRestore, claimDatabase } from "~db/backup.server";
import { getDb } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { seedBase } from "~db/seed.server";
import { getEnv, sqlitePathFromUrl } from "~/utils/env.server";

export type StartupTask = { name: string; run: () => Promise<string | void> };

/**
 * Everything that must be true before the first request: schema at latest, base data,
 * optional demo data and admin account. Later features register their tasks here.
 */
export async function prepareDatabase(log: (line: string) => void = console.log): Promise<() => void> {
  const env = getEnv();
  const file = sqlitePathFromUrl(env.DATABASE_URL);
  // A restore staged with `npm run db:restore -- FILE --at-next-start` goes in before the database opens.
  const restored = applyStagedRestore(file);
  if (restored) log(`[db] restored the staged backup ${restored}`);
  const release = claimDatabase(file);
  const db = getDb();
  const applied = await migrateToLatest(db);
  log(applied.length ? `[db] migrations applied: ${applied.join(", ")}` : "[db] schema up to date");
  const seeded = await seedBase(db);
  if (seeded.platforms || seeded.settings) log(`[db] seeded ${seeded.platforms} platform(s), ${seeded.settings} setting(s)`);
  if (env.SEED_DEMO) {
    const { seedDemo } = await import("~db/seed-demo.server");
    log(`[db] demo data: ${await seedDemo(db)}`);
  }
  for (const task of extraStartupTasks) {
    const message = await task.run();
    if (message) log(`[${task.name}] ${message}`);
  }
  return release;
}

/** Tasks that need more than the base data (admin from env, cleanup job). */
export const extraStartupTasks: StartupTask[] = [
  {
    name: "admin",
    async run() {
      const { ADMIN_EMAIL, ADMIN_PASSWORD } = getEnv();
      if (!ADMIN_EMAIL || !ADMIN_PASSWORD) return;
      const { upsertAdmin } = await import("~db/repositories/users.server");
      return `${ADMIN_EMAIL}: ${await upsertAdmin(ADMIN_EMAIL, ADMIN_PASSWORD)}`;
    },
  },
];
