import { sql } from "kysely";
import { getDb, type DB } from "../client.server";

/**
 * How many codes a draw could serve now, without reading every code (issue 24, decision 194).
 *
 * In the draw = active and not capped (platform_code_counts, kept by triggers with every write:
 * migration 0013) − of those, the ones whose expiry has passed (referral_codes_expired_idx, a small
 * range: the clean-up job removes expired codes) + the ones whose monthly cap has ended and that have
 * not expired (referral_codes_capped_idx, a small range: the history job clears ended caps).
 * The same rule as `eligible` in codes.server.ts; tests/integration/code-counts.test.ts holds the two
 * equal through every kind of write and the passing of time.
 */
/**
 * Grouped by `+platform_id`, not the bare column: SQLite would otherwise walk a whole index that is
 * in platform order to skip a sort, instead of the small range these counts are about (the unary plus
 * is a no-op on both databases; tests/integration/figure-plans.test.ts holds the plans).
 */
const byPlatform = sql<number>`+platform_id`;

async function availableBy(now: Date, db: DB, platformId?: number): Promise<Map<number, number>> {
  const at = now.toISOString();
  let kept = db.selectFrom("platform_code_counts").select(["platform_id", "active_uncapped as n"]);
  // Literal flags: the partial index's own condition must appear as written (decision 010).
  let expired = db
    .selectFrom("referral_codes")
    .select((eb) => [byPlatform.as("platform_id"), eb.fn.countAll<number>().as("n")])
    .where("is_active", "=", sql.lit(1))
    .where("is_permanent", "=", sql.lit(0))
    .where("capped_until", "is", null)
    .where("expires_at", "<=", at)
    .groupBy(byPlatform);
  let capEnded = db
    .selectFrom("referral_codes")
    .select((eb) => [byPlatform.as("platform_id"), eb.fn.countAll<number>().as("n")])
    .where("capped_until", "<=", at)
    .where("is_active", "=", sql.lit(1))
    .where((eb) => eb.or([eb("is_permanent", "=", sql.lit(1)), eb("expires_at", "is", null), eb("expires_at", ">", at)]))
    .groupBy(byPlatform);
  if (platformId !== undefined) {
    kept = kept.where("platform_id", "=", platformId);
    expired = expired.where("platform_id", "=", platformId);
    capEnded = capEnded.where("platform_id", "=", platformId);
  }
  const [keptRows, expiredRows, capEndedRows] = await Promise.all([kept.execute(), expired.execute(), capEnded.execute()]);
  const counts = new Map<number, number>();
  const add = (rows: Array<{ platform_id: number; n: number }>, sign: number) => {
    for (const row of rows) counts.set(row.platform_id, (counts.get(row.platform_id) ?? 0) + sign * Number(row.n));
  };
  add(keptRows, 1);
  add(expiredRows, -1);
  add(capEndedRows, 1);
  for (const [id, n] of counts) if (n <= 0) counts.delete(id);
  return counts;
}

/** Codes a draw could serve now, per platform (platforms without any are absent). */
export async function countAvailableByPlatform(now = new Date(), db: DB = getDb()): Promise<Map<number, number>> {
  return availableBy(now, db);
}

/** How many codes a draw could serve now on this platform (the landing page's live count). */
export async function countAvailableCodes(platformId: number, now = new Date(), db: DB = getDb()): Promise<number> {
  return (await availableBy(now, db, platformId)).get(platformId) ?? 0;
}

/** Same, across every active platform (/random). */
export async function countAllAvailableCodes(now = new Date(), db: DB = getDb()): Promise<number> {
  const [platforms, counts] = await Promise.all([
    db.selectFrom("platforms").select("id").where("is_active", "=", 1).execute(),
    availableBy(now, db),
  ]);
  return platforms.reduce((sum, p) => sum + (counts.get(p.id) ?? 0), 0);
}

/** Every code, whatever its state or platform's (the dashboard's total): one row per platform. */
export async function countAllCodes(db: DB = getDb()): Promise<number> {
  const row = await db
    .selectFrom("platform_code_counts")
    .select((eb) => eb.fn.sum<number>("codes").as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Every active platform with its count of codes a draw could serve now, by name (/platforms), and
 * what its offer gives the new customer (the card's lead; one row per platform at most).
 */
export async function listActivePlatformsWithCounts(now = new Date(), db: DB = getDb()) {
  const [platforms, counts] = await Promise.all([
    db
      .selectFrom("platforms")
      .leftJoin("platform_offers", "platform_offers.platform_id", "platforms.id")
      .select([
        "platforms.id",
        "platforms.name",
        "platforms.slug",
        "platforms.emoji_icon",
        "platforms.custom_logo_light_url",
        "platforms.custom_logo_dark_url",
        "platforms.description",
        "platforms.description_en",
        "platforms.description_de",
        "platforms.description_es",
        "platforms.gradient_from",
        "platforms.gradient_to",
        "platform_offers.offer_referee",
        "platform_offers.offer_referee_en",
        "platform_offers.offer_referee_de",
        "platform_offers.offer_referee_es",
      ])
      .where("platforms.is_active", "=", 1)
      .orderBy("platforms.name", "asc")
      .execute(),
    availableBy(now, db),
  ]);
  return platforms.map((p) => ({ ...p, available: counts.get(p.id) ?? 0 }));
}
