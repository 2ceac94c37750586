import { getDb, type DB } from "../client.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";
import type { DeviceType, DisplayMode } from "../schema";
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

const PARTNERSHIP_ORDER: Keyset = {
  direction: "asc",
  keys: [
    { column: "display_order", field: "display_order", type: "int" },
    { column: "id", field: "id", type: "int" },
  ],
};

/** One page of partnerships in their display order (admin); and how many there are. */
export async function listPartnershipsAdmin(page: PageRequest, db: DB = getDb()) {
  const query = db.selectFrom("partnerships");
  const [rows, total] = await Promise.all([
    keysetPage(query.selectAll(), PARTNERSHIP_ORDER, page),
    boundedCount(db, query, COUNT_CAP),
  ]);
  return { ...rows, total };
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

/** One partnership (the one a confirmation step names). */
export async function getPartnership(id: number, db: DB = getDb()) {
  return db.selectFrom("partnerships").selectAll().where("id", "=", id).executeTakeFirst();
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

const CHART_DAYS = 30;

/** Every platform, active or not, for the request log's filter. */
export async function listPlatformFilterOptions(db: DB = getDb()) {
  return db.selectFrom("platforms").select(["id", "name", "slug"]).orderBy("name", "asc").execute();
}

const DRAW_ORDER: Keyset = {
  direction: "desc",
  keys: [
    { column: "r.created_at", field: "created_at", type: "text" },
    { column: "r.id", field: "id", type: "int" },
  ],
};

/** One page of the draw log, newest first, optionally for one platform and one day; and how many match. */
export async function listDraws(
  filters: { platformId: number | null; range: { from: string; to: string } | null },
  page: PageRequest,
  db: DB = getDb(),
) {
  let query = db.selectFrom("random_requests as r");
  if (filters.platformId !== null) query = query.where("r.platform_id", "=", filters.platformId);
  if (filters.range) query = query.where("r.created_at", ">=", filters.range.from).where("r.created_at", "<", filters.range.to);
  const listed = query
    .innerJoin("platforms as p", "p.id", "r.platform_id")
    .select(["r.id", "r.served_code", "r.served_code_id", "r.created_at", "p.name as platform_name", "p.slug as platform_slug"]);
  const [rows, total] = await Promise.all([keysetPage(listed, DRAW_ORDER, page), boundedCount(db, query, COUNT_CAP)]);
  return { ...rows, total };
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

const SCORE_ORDER: Keyset = {
  direction: "desc",
  keys: [
    { column: "created_at", field: "created_at", type: "text" },
    { column: "id", field: "id", type: "int" },
  ],
};

/** One page of scores, newest first, optionally of one device and one day; and how many match. */
export async function listScoresAdmin(
  filters: { device: DeviceType | null; range: { from: string; to: string } | null },
  page: PageRequest,
  db: DB = getDb(),
) {
  let query = db.selectFrom("game_scores");
  if (filters.device) query = query.where("device_type", "=", filters.device);
  if (filters.range) query = query.where("created_at", ">=", filters.range.from).where("created_at", "<", filters.range.to);
  const [rows, total] = await Promise.all([keysetPage(query.selectAll(), SCORE_ORDER, page), boundedCount(db, query, COUNT_CAP)]);
  return { ...rows, total };
}

/** One score (the one a confirmation step names). */
export async function getScore(id: number, db: DB = getDb()) {
  return db.selectFrom("game_scores").selectAll().where("id", "=", id).executeTakeFirst();
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
