import { sql } from "kysely";
import { getDb, type DB } from "../client.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";
import { countAvailableByPlatform } from "./code-counts.server";
import { eligible } from "./codes.server";
import { figuresOverDays } from "./daily-figures.server";

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
   * Turns of the codes in rotation (`rotation_count`: serves, plus the turns a code was given when it
   * joined a round; rotation.server.ts), most first, at most FAIRNESS_BARS of them: the most and,
   * last, the fewest (the extremes are what fairness is about). Evenness over the time each code was
   * in the rotation, which the rule keeps within one.
   */
  serves: number[];
}

/** Bars of a platform's chart: a page stays the same size however many codes a platform has. */
const FAIRNESS_BARS = 12;

/** The order platforms are listed in everywhere public: the admin's display order, then by name. */
const PLATFORM_ORDER: Keyset = {
  direction: "asc",
  keys: [
    { column: "display_order", field: "display_order", type: "int" },
    { column: "name", field: "name", type: "text" },
    { column: "id", field: "id", type: "int" },
  ],
};

/** Platforms per page of /fairness: each card carries a chart, and a phone renders a dozen at ease. */
export const FAIRNESS_PAGE_SIZE = 12;

/**
 * One page of active platforms (or the one named by `slug`), each with its codes in rotation (the
 * kept counts: code-counts.server.ts), draws over 30 days (daily figures) and the serves of its most
 * and least served codes (a few steps down the draw index, from each end). Nothing here reads every
 * code, every draw or every platform.
 */
export async function listPlatformFairness(
  options: { page: PageRequest; slug?: string | null },
  now = new Date(),
  db: DB = getDb(),
) {
  const at = now.toISOString();
  let query = db.selectFrom("platforms").where("is_active", "=", 1);
  if (options.slug) query = query.where("slug", "=", options.slug);
  const [page, total, counts, draws] = await Promise.all([
    keysetPage(query.select(["id", "name", "slug", "display_order"]), PLATFORM_ORDER, options.page),
    boundedCount(db, query, COUNT_CAP),
    countAvailableByPlatform(now, db),
    figuresOverDays(30, now, null, db),
  ]);
  const platforms = page.rows;
  // Each platform's most served codes and its least served one: a few steps down the draw index per
  // platform and direction. One statement per platform, the same text for all of them: SQLite keeps
  // it prepared (a union of every platform's parts was planned anew on each request: 20 ms at 66
  // platforms), PostgreSQL runs them side by side on the pool.
  const part = (platformId: number, direction: "asc" | "desc", limit: number) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom("referral_codes")
          .select(["platform_id", "rotation_count"])
          .where("platform_id", "=", platformId)
          .where(eligible(at))
          .orderBy("rotation_count", direction)
          .limit(sql.lit(limit))
          .as("x"),
      )
      .select((eb) => ["x.rotation_count", eb.lit(direction === "asc" ? 1 : 0).as("least")]);
  const servesBy = new Map<number, { most: number[]; least: number[] }>();
  await Promise.all(
    platforms.map(async (p) => {
      const inRotation = counts.get(p.id) ?? 0;
      if (inRotation === 0) return;
      const rows = await (
        inRotation > FAIRNESS_BARS
          ? part(p.id, "desc", FAIRNESS_BARS - 1).unionAll(part(p.id, "asc", 1))
          : part(p.id, "desc", FAIRNESS_BARS)
      ).execute();
      const entry = { most: [] as number[], least: [] as number[] };
      for (const row of rows) (Number(row.least) === 1 ? entry.least : entry.most).push(row.rotation_count);
      servesBy.set(p.id, entry);
    }),
  );
  const rows: PlatformFairness[] = platforms.map((p) => {
    const entry = servesBy.get(p.id);
    const serves = entry ? [...entry.most.sort((a, b) => b - a), ...entry.least] : [];
    return {
      id: p.id,
      name: p.name,
      slug: p.slug,
      inRotation: counts.get(p.id) ?? 0,
      drawsLast30Days: draws.get(p.id)?.draws ?? 0,
      serves,
    };
  });
  return { rows, next: page.next, prev: page.prev, total };
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
