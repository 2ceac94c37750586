import { getDb, type DB } from "../client.server";
import type { DeviceType, RequestStatus } from "../schema";
import { nextDayStartIso, parisDayStarts } from "../time";
import { figuresPerDay } from "./daily-figures.server";
import { eligible } from "./codes.server";

/**
 * The read-only queries the admin assistant's tools run over the site's rows (platforms, codes,
 * draws, requests, suggestions, scores), and the rows its proposals act on. Every list is capped by
 * the caller's `limit`; none writes.
 */

// ---------- tool queries (read-only) ----------

export async function siteOverview(db: DB = getDb()) {
  const [platforms, deletions, suggestions, scores] = await Promise.all([
    db
      .selectFrom("platforms")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>(eb.case().when("is_active", "=", 1).then(1).else(0).end()).as("active"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("deletion_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "pending")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("platform_suggestions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "pending")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("game_scores")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    platforms: Number(platforms.total),
    activePlatforms: Number(platforms.active ?? 0),
    pendingDeletionRequests: Number(deletions.n),
    pendingSuggestions: Number(suggestions.n),
    gameScores: Number(scores.n),
  };
}

/** Every platform with its code counts: available now (a draw could serve it), inactive, expired. */
export async function platformsWithCodeCounts(activeOnly: boolean, limit: number, now = new Date(), db: DB = getDb()) {
  const nowIso = now.toISOString();
  let query = db
    .selectFrom("platforms as p")
    .leftJoin("referral_codes", "referral_codes.platform_id", "p.id")
    .select((eb) => [
      "p.id",
      "p.slug",
      "p.name",
      "p.is_active",
      eb.fn.count<number>("referral_codes.id").as("total_codes"),
      eb.fn
        .sum<number>(
          eb
            .case()
            // The draw's own rule (a code on its monthly cap is not available).
            .when(eligible(nowIso)(eb))
            .then(1)
            .else(0)
            .end(),
        )
        .as("available_codes"),
      eb.fn.sum<number>(eb.case().when("referral_codes.is_active", "=", 0).then(1).else(0).end()).as("inactive_codes"),
      eb.fn.coalesce(eb.fn.sum<number>("referral_codes.times_served"), eb.lit(0)).as("total_serves"),
    ])
    .groupBy(["p.id", "p.slug", "p.name", "p.is_active"])
    .orderBy("p.display_order", "asc")
    .orderBy("p.name", "asc")
    .limit(limit);
  if (activeOnly) query = query.where("p.is_active", "=", 1);
  const rows = await query.execute();
  return rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    active: r.is_active === 1,
    totalCodes: Number(r.total_codes),
    availableCodes: Number(r.available_codes ?? 0),
    inactiveCodes: Number(r.inactive_codes ?? 0),
    totalServes: Number(r.total_serves ?? 0),
  }));
}

export type CodeFilter = "all" | "never_served" | "expiring_soon" | "most_served";

/** One platform's codes; null when the slug is unknown. */
export async function platformCodes(
  slug: string,
  filter: CodeFilter,
  expiringWithinDays: number,
  limit: number,
  now = new Date(),
  db: DB = getDb(),
) {
  const platform = await db.selectFrom("platforms").select(["id", "name", "slug"]).where("slug", "=", slug).executeTakeFirst();
  if (!platform) return null;
  const nowIso = now.toISOString();
  let query = db
    .selectFrom("referral_codes")
    .select(["id", "code", "is_active", "is_permanent", "expires_at", "times_served", "last_served_at", "created_at"])
    .where("platform_id", "=", platform.id)
    .limit(limit);
  switch (filter) {
    case "never_served":
      query = query.where("times_served", "=", 0).orderBy("created_at", "asc");
      break;
    case "expiring_soon": {
      const until = new Date(now.getTime() + expiringWithinDays * 86_400_000).toISOString();
      query = query
        .where("is_permanent", "=", 0)
        .where("is_active", "=", 1)
        .where("expires_at", ">", nowIso)
        .where("expires_at", "<=", until)
        .orderBy("expires_at", "asc");
      break;
    }
    case "most_served":
      query = query.orderBy("times_served", "desc").orderBy("id", "asc");
      break;
    default:
      query = query.orderBy("created_at", "desc").orderBy("id", "desc");
  }
  const codes = await query.execute();
  return {
    platform: { slug: platform.slug, name: platform.name },
    codes: codes.map((c) => ({
      id: c.id,
      code: c.code,
      active: c.is_active === 1,
      permanent: c.is_permanent === 1,
      expired: c.is_permanent === 0 && c.expires_at !== null && c.expires_at <= nowIso,
      expiresAt: c.is_permanent === 1 ? null : c.expires_at,
      timesServed: c.times_served,
      lastServedAt: c.last_served_at,
      createdAt: c.created_at,
    })),
  };
}

/**
 * Draws per Paris day and platform over the `days` days ending `until` (inclusive), oldest first:
 * the daily figures and the log's recent rows (db/repositories/daily-figures.server.ts). Platforms
 * without a draw in those days are left out.
 */
export async function drawsPerDayByPlatform(days: number, until: Date, slug: string | null, db: DB = getDb()) {
  const starts = parisDayStarts(days, until);
  const end = nextDayStartIso(starts[starts.length - 1]!);
  let platforms = db.selectFrom("platforms").select(["id", "slug"]).orderBy("slug");
  if (slug) platforms = platforms.where("slug", "=", slug);
  const list = await platforms.execute();
  if (list.length === 0) return { dayStarts: starts, rows: [] };
  const figures = await figuresPerDay(starts, end, list.length === 1 ? list[0]!.id : null, db);
  const rows: Array<Record<string, string | number | null>> = [];
  for (const p of list) {
    const perDay = figures.get(p.id);
    if (!perDay || perDay.every((d) => d.draws === 0)) continue;
    rows.push({ slug: p.slug, ...Object.fromEntries(perDay.map((d, i) => [`d${i}`, d.draws])) });
  }
  return { dayStarts: starts, rows };
}

export async function platformExists(slug: string, db: DB = getDb()): Promise<boolean> {
  return Boolean(await db.selectFrom("platforms").select("id").where("slug", "=", slug).executeTakeFirst());
}

export async function deletionRequests(
  status: RequestStatus | "all",
  olderThanIso: string | null,
  limit: number,
  db: DB = getDb(),
) {
  let query = db
    .selectFrom("deletion_requests as d")
    .innerJoin("platforms as p", "p.id", "d.platform_id")
    .select(["d.id", "d.code", "d.reason", "d.status", "d.created_at", "d.resolved_at", "p.slug as platform"])
    .orderBy("d.created_at", "asc")
    .orderBy("d.id", "asc")
    .limit(limit);
  if (status !== "all") query = query.where("d.status", "=", status);
  if (olderThanIso) query = query.where("d.created_at", "<", olderThanIso);
  return query.execute();
}

export async function suggestionsWithVotes(status: RequestStatus | "all", limit: number, db: DB = getDb()) {
  let query = db
    .selectFrom("platform_suggestions")
    .select(["id", "name", "description", "website_url", "status", "votes_count", "created_at"])
    .orderBy("votes_count", "desc")
    .orderBy("created_at", "desc")
    .limit(limit);
  if (status !== "all") query = query.where("status", "=", status);
  return query.execute();
}

export async function topScores(device: DeviceType | "all", fromIso: string, toIso: string, limit: number, db: DB = getDb()) {
  let query = db
    .selectFrom("game_scores")
    .select(["id", "player_name", "score", "device_type", "created_at"])
    .where("created_at", ">=", fromIso)
    .where("created_at", "<", toIso)
    .orderBy("score", "desc")
    .orderBy("created_at", "asc")
    .limit(limit);
  if (device !== "all") query = query.where("device_type", "=", device);
  return query.execute();
}

// ---------- proposal targets ----------

export async function codeForProposal(id: number, db: DB = getDb()) {
  return db
    .selectFrom("referral_codes as c")
    .innerJoin("platforms as p", "p.id", "c.platform_id")
    .select([
      "c.id",
      "c.code",
      "c.is_active",
      "c.times_served",
      "c.created_at",
      "p.name as platform_name",
      "p.slug as platform_slug",
    ])
    .where("c.id", "=", id)
    .executeTakeFirst();
}

/** A deletion request, with how many codes approving it would remove (its code on its platform). */
export async function deletionRequestForProposal(id: number, db: DB = getDb()) {
  return db
    .selectFrom("deletion_requests as d")
    .innerJoin("platforms as p", "p.id", "d.platform_id")
    .select((eb) => [
      "d.id",
      "d.code",
      "d.status",
      "d.reason",
      "d.created_at",
      "p.name as platform_name",
      eb
        .selectFrom("referral_codes as c")
        .select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("c.platform_id", "=", "d.platform_id")
        .whereRef("c.code", "=", "d.code")
        .as("matching_codes"),
    ])
    .where("d.id", "=", id)
    .executeTakeFirst();
}

export async function suggestionForProposal(id: number, db: DB = getDb()) {
  return db
    .selectFrom("platform_suggestions")
    .select(["id", "name", "description", "website_url", "status", "votes_count", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
}
