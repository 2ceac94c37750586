// The draw benchmarks' database: one platform ("bench") with `codes` permanent codes on a fresh,
// migrated database (SQLite file or PostgreSQL URL), and the tally that checks a run stayed fair.
import { closeDb, getDb, type DB } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { resetEnvCache } from "~/utils/env.server";

export const BENCH_SLUG = "bench";

export async function prepareBenchDatabase(databaseUrl: string, codes: number): Promise<{ db: DB; platformId: number }> {
  await closeDb();
  process.env.DATABASE_URL = databaseUrl;
  resetEnvCache();
  const db = getDb();
  await migrateToLatest(db);
  const created = new Date().toISOString();
  const platform = await db
    .insertInto("platforms")
    .values({
      name: "Bench",
      slug: BENCH_SLUG,
      gradient_from: "#3b82f6",
      gradient_to: "#8b5cf6",
      hosts: "bench.example",
      referral_url_template: "https://bench.example/r/{code}",
      created_at: created,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("referral_codes")
    .values(
      Array.from({ length: codes }, (_, i) => ({
        platform_id: platform.id,
        code: `BENCH${String(i).padStart(4, "0")}`,
        is_permanent: 1,
        created_at: created,
      })),
    )
    .execute();
  return { db, platformId: platform.id };
}

/** Spread of the bench codes' serves (max - min), their total, and the draw log's row count. */
export async function drawTally(db: DB): Promise<{ spread: number; served: number; logged: number }> {
  const rows = await db
    .selectFrom("referral_codes")
    .innerJoin("platforms", "platforms.id", "referral_codes.platform_id")
    .select("referral_codes.times_served")
    .where("platforms.slug", "=", BENCH_SLUG)
    .execute();
  const counts = rows.map((r) => r.times_served);
  const logged = await db
    .selectFrom("random_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return {
    spread: Math.max(...counts) - Math.min(...counts),
    served: counts.reduce((a, b) => a + b, 0),
    logged: Number(logged.n),
  };
}
