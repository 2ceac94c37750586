import type { DeviceType } from "../schema";
import { getDb, type DB } from "../client.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";

/** Game scores: the public leaderboard, a game's score, and the admin's list and edits. */

const LEADERBOARD_SIZE = 10;
const LEADERBOARD_DAYS = 30;
const DAY_MS = 86_400_000;

export interface LeaderboardEntry {
  player_name: string;
  score: number;
  created_at: string;
}

/** Best first; a tie goes to whoever got there first. */
export async function listLeaderboard(device: DeviceType, now = new Date(), db: DB = getDb()): Promise<LeaderboardEntry[]> {
  const since = new Date(now.getTime() - LEADERBOARD_DAYS * DAY_MS).toISOString();
  return db
    .selectFrom("game_scores")
    .select(["player_name", "score", "created_at"])
    .where("device_type", "=", device)
    .where("created_at", ">=", since)
    .orderBy("score", "desc")
    .orderBy("created_at", "asc")
    .limit(LEADERBOARD_SIZE)
    .execute();
}

export type SaveScoreResult = { saved: true; rank: number } | { saved: false; reason: "replay" | "daily" };

/** The first instant of `now`'s UTC day. */
function dayStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}

/**
 * One transaction: spend the game session (refused if already spent), store the score, and tell its
 * rank on the 30-day board of its device. Spent sessions past their expiry go at the same time. A
 * subscriber (`network_hash`: an IPv6 /48, an IPv4 address) with an entry today (UTC) is refused
 * (`daily`), writing nothing.
 */
export async function saveScore(
  entry: {
    sessionId: string;
    sessionExpiresAt: string;
    player_name: string;
    score: number;
    device_type: DeviceType;
    network_hash?: string | null;
  },
  now = new Date(),
  db: DB = getDb(),
): Promise<SaveScoreResult> {
  const createdAt = now.toISOString();
  return db.transaction().execute(async (trx): Promise<SaveScoreResult> => {
    if (entry.network_hash) {
      const today = await trx
        .selectFrom("game_scores")
        .select("id")
        .where("network_hash", "=", entry.network_hash)
        .where("created_at", ">=", dayStart(now))
        .executeTakeFirst();
      if (today) return { saved: false, reason: "daily" };
    }
    const spent = await trx
      .insertInto("game_sessions_used")
      .values({ id: entry.sessionId, expires_at: entry.sessionExpiresAt })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(spent.numInsertedOrUpdatedRows ?? 0) !== 1) return { saved: false, reason: "replay" };
    await trx.deleteFrom("game_sessions_used").where("expires_at", "<", createdAt).execute();
    const row = await trx
      .insertInto("game_scores")
      .values({
        player_name: entry.player_name,
        score: entry.score,
        device_type: entry.device_type,
        network_hash: entry.network_hash ?? null,
        created_at: createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const since = new Date(now.getTime() - LEADERBOARD_DAYS * DAY_MS).toISOString();
    const ahead = await trx
      .selectFrom("game_scores")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("device_type", "=", entry.device_type)
      .where("created_at", ">=", since)
      .where("id", "!=", row.id)
      .where((eb) =>
        eb.or([eb("score", ">", entry.score), eb.and([eb("score", "=", entry.score), eb("created_at", "<=", createdAt)])]),
      )
      .executeTakeFirstOrThrow();
    return { saved: true, rank: Number(ahead.n) + 1 };
  });
}

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
