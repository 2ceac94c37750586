import { sql } from "kysely";
import { getDb, type DB } from "../client.server";

/** Public figures about the rotation (/fairness) and the platforms feed. Never codes. */

export interface PlatformFairness {
  id: number;
  name: string;
  slug: string;
  /** Codes a draw could serve now. */
  inRotation: number;
  drawsLast30Days: number;
  /** Serves of each code in rotation, most served first. */
  serves: number[];
}

export async function listPlatformFairness(now = new Date(), db: DB = getDb()): Promise<PlatformFairness[]> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000).toISOString();
  const [platforms, codes, draws] = await Promise.all([
    db
      .selectFrom("platforms")
      .select(["id", "name", "slug"])
      .where("is_active", "=", 1)
      .orderBy("display_order", "asc")
      .orderBy("name", "asc")
      .execute(),
    // The draw's own eligibility: active, and permanent, without expiry or not yet expired, and not on a monthly cap.
    db
      .selectFrom("referral_codes")
      .select(["platform_id", "times_served"])
      .where("is_active", "=", 1)
      .where((eb) => eb.or([eb("is_permanent", "=", 1), eb("expires_at", "is", null), eb("expires_at", ">", at)]))
      .where((eb) => eb.or([eb("capped_until", "is", null), eb("capped_until", "<=", at)]))
      .orderBy("times_served", "desc")
      .execute(),
    db
      .selectFrom("random_requests")
      .select(["platform_id", sql<number>`count(*)`.as("n")])
      .where("created_at", ">=", since)
      .groupBy("platform_id")
      .execute(),
  ]);
  const servesBy = new Map<number, number[]>();
  for (const c of codes) {
    let list = servesBy.get(c.platform_id);
    if (!list) servesBy.set(c.platform_id, (list = []));
    list.push(c.times_served);
  }
  const drawsBy = new Map(draws.map((d) => [d.platform_id, Number(d.n)]));
  return platforms.map((p) => {
    const serves = servesBy.get(p.id) ?? [];
    return { ...p, inRotation: serves.length, drawsLast30Days: drawsBy.get(p.id) ?? 0, serves };
  });
}

/** Active platforms, newest first (the Atom feed). */
export async function listNewestPlatforms(limit: number, db: DB = getDb()) {
  return db
    .selectFrom("platforms")
    .select(["id", "name", "slug", "description", "description_en", "description_de", "description_es", "created_at"])
    .where("is_active", "=", 1)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
