import { getDb, type DB } from "../client.server";
import type { DisplayMode } from "../schema";
import { parisDayStarts } from "../time";
import { figuresPerDay } from "./history.server";

/** The admin's reads and writes for the site tabs: partnerships, requests, scores. */

// ---------- partnerships ----------

export interface PartnershipInput {
  name: string;
  url: string;
  logo_url: string | null;
  description: string | null;
  /** Translations of the description; empty ones fall back to the French `description`. */
  description_en?: string | null;
  description_de?: string | null;
  description_es?: string | null;
  display_mode: DisplayMode;
  is_active: 0 | 1;
}

/** All partnerships in their display order (admin). */
export async function listPartnershipsAdmin(db: DB = getDb()) {
  return db.selectFrom("partnerships").selectAll().orderBy("display_order", "asc").orderBy("id", "asc").execute();
}

/** A new partnership goes last: its display_order is the current list length. */
export async function createPartnership(input: PartnershipInput, db: DB = getDb()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { n } = await trx
      .selectFrom("partnerships")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto("partnerships")
      .values({ ...input, display_order: Number(n), created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** False when no such partnership. */
export async function updatePartnership(id: number, input: PartnershipInput, db: DB = getDb()): Promise<boolean> {
  const result = await db.updateTable("partnerships").set(input).where("id", "=", id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deletePartnership(id: number, db: DB = getDb()): Promise<boolean> {
  const result = await db.deleteFrom("partnerships").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Swaps a partnership with its neighbour, in one transaction. Orders are renumbered 0..n-1 on the
 * way, so rows that share a display_order (older data, deletions) still move by exactly one place.
 * Returns "missing" for an unknown id, "edge" when it is already first/last.
 */
export async function movePartnership(
  id: number,
  direction: "up" | "down",
  db: DB = getDb(),
): Promise<"moved" | "edge" | "missing"> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("partnerships")
      .select(["id", "display_order"])
      .orderBy("display_order", "asc")
      .orderBy("id", "asc")
      .execute();
    const index = rows.findIndex((r) => r.id === id);
    if (index < 0) return "missing";
    const other = direction === "up" ? index - 1 : index + 1;
    if (other < 0 || other >= rows.length) return "edge";
    const order = rows.map((r) => r.id);
    [order[index], order[other]] = [order[other]!, order[index]!];
    for (const [position, rowId] of order.entries()) {
      const current = rows.find((r) => r.id === rowId)!;
      if (current.display_order !== position) {
        await trx.updateTable("partnerships").set({ display_order: position }).where("id", "=", rowId).execute();
      }
    }
    return "moved";
  });
}

// ---------- draw requests ----------

export { parisDayStarts };

export const RECENT_DRAWS_LIMIT = 50;
const CHART_DAYS = 30;

/** Every platform, active or not, for the request log's filter. */
export async function listPlatformFilterOptions(db: DB = getDb()) {
  return db.selectFrom("platforms").select(["id", "name", "slug"]).orderBy("name", "asc").execute();
}

/** The 50 newest draws with their platform, optionally for one platform (by slug). */
export async function listRecentDraws(platformId: number | null, db: DB = getDb()) {
  let query = db
    .selectFrom("random_requests as r")
    .innerJoin("platforms as p", "p.id", "r.platform_id")
    .select(["r.id", "r.served_code", "r.served_code_id", "r.created_at", "p.name as platform_name", "p.slug as platform_slug"])
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(RECENT_DRAWS_LIMIT);
  if (platformId !== null) query = query.where("r.platform_id", "=", platformId);
  return query.execute();
}

/**
 * Draws per Paris day over the last 30 days (today included), oldest first: rolled-up days from the
 * daily figures, the others from the log (db/repositories/history.server.ts).
 */
export async function drawsPerDay(platformId: number | null, now = new Date(), db: DB = getDb()) {
  const starts = parisDayStarts(CHART_DAYS, now);
  const figures = await figuresPerDay(starts, "9999", platformId, db);
  return starts.map((start, i) => {
    let count = 0;
    for (const days of figures.values()) count += days[i]!.draws;
    return { dayStart: start, count };
  });
}

// ---------- game scores ----------

const ADMIN_SCORES_LIMIT = 500;

/** Scores newest first (capped: the admin reads the recent ones; old ones are rarely edited). */
export async function listScoresAdmin(db: DB = getDb()) {
  return db
    .selectFrom("game_scores")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(ADMIN_SCORES_LIMIT)
    .execute();
}

export async function updateScore(
  id: number,
  values: { player_name: string; score: number },
  db: DB = getDb(),
): Promise<boolean> {
  const result = await db.updateTable("game_scores").set(values).where("id", "=", id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteScore(id: number, db: DB = getDb()): Promise<boolean> {
  const result = await db.deleteFrom("game_scores").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
