import { getDb, type DB } from "../client.server";
import { countAvailableByPlatform, eligible } from "./codes.server";
import { figuresOverDays } from "./history.server";

/** Public figures about the rotation (/fairness) and the platforms feed. Never codes. */

export interface PlatformFairness {
  id: number;
  name: string;
  slug: string;
  /** Codes a draw could serve now. */
  inRotation: number;
  /** Draws over the last 30 Paris days (today included). */
  drawsLast30Days: number;
  /**
   * Serves of the codes in rotation, most served first, at most FAIRNESS_BARS of them: the most
   * served ones and, last, the least served one (the extremes are what fairness is about).
   */
  serves: number[];
}

/** Bars of a platform's chart: a page stays the same size however many codes a platform has. */
const FAIRNESS_BARS = 12;

/**
 * Per active platform: codes in rotation (counted from referral_codes_available_idx alone), draws
 * over 30 days (daily figures), and the serves of its most and least served codes (a few steps
 * down the draw index, from each end). Nothing here reads every code or every draw.
 */
export async function listPlatformFairness(now = new Date(), db: DB = getDb()): Promise<PlatformFairness[]> {
  const at = now.toISOString();
  const [platforms, counts, draws] = await Promise.all([
    db
      .selectFrom("platforms")
      .select(["id", "name", "slug"])
      .where("is_active", "=", 1)
      .orderBy("display_order", "asc")
      .orderBy("name", "asc")
      .execute(),
    countAvailableByPlatform(now, db),
    figuresOverDays(30, now, null, db),
  ]);
  // Each platform's most served codes and its least served one: one statement, a few steps down
  // the draw index per platform and direction (the union keeps it one round trip).
  const parts = platforms.flatMap((p) => {
    const inRotation = counts.get(p.id) ?? 0;
    if (inRotation === 0) return [];
    const part = (direction: "asc" | "desc", limit: number) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom("referral_codes")
            .select(["platform_id", "times_served"])
            .where("platform_id", "=", p.id)
            .where(eligible(at))
            .orderBy("times_served", direction)
            .limit(limit)
            .as("x"),
        )
        .select((eb) => ["x.platform_id", "x.times_served", eb.lit(direction === "asc" ? 1 : 0).as("least")]);
    return inRotation > FAIRNESS_BARS ? [part("desc", FAIRNESS_BARS - 1), part("asc", 1)] : [part("desc", FAIRNESS_BARS)];
  });
  const servesBy = new Map<number, { most: number[]; least: number[] }>();
  if (parts.length > 0) {
    const rows = await parts
      .slice(1)
      .reduce((query, part) => query.unionAll(part), parts[0]!)
      .execute();
    for (const row of rows) {
      let entry = servesBy.get(row.platform_id);
      if (!entry) servesBy.set(row.platform_id, (entry = { most: [], least: [] }));
      (Number(row.least) === 1 ? entry.least : entry.most).push(row.times_served);
    }
  }
  return platforms.map((p) => {
    const entry = servesBy.get(p.id);
    const serves = entry ? [...entry.most.sort((a, b) => b - a), ...entry.least] : [];
    return { ...p, inRotation: counts.get(p.id) ?? 0, drawsLast30Days: draws.get(p.id)?.draws ?? 0, serves };
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
