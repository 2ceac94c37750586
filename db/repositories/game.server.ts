import type { DeviceType } from "../schema";
import { getDb, type DB } from "../client.server";

/** The game's public leaderboard and its score writes. The admin's edits live in admin-site.server.ts. */

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

export type SaveScoreResult = { saved: true; rank: number } | { saved: false };

/**
 * One transaction: spend the game session (refused if already spent), store the score, and tell its
 * rank on the 30-day board of its device. Spent sessions past their expiry go at the same time.
 */
export async function saveScore(
  entry: { sessionId: string; sessionExpiresAt: string; player_name: string; score: number; device_type: DeviceType },
  now = new Date(),
  db: DB = getDb(),
): Promise<SaveScoreResult> {
  const createdAt = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .insertInto("game_sessions_used")
      .values({ id: entry.sessionId, expires_at: entry.sessionExpiresAt })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(spent.numInsertedOrUpdatedRows ?? 0) !== 1) return { saved: false };
    await trx.deleteFrom("game_sessions_used").where("expires_at", "<", createdAt).execute();
    const row = await trx
      .insertInto("game_scores")
      .values({ player_name: entry.player_name, score: entry.score, device_type: entry.device_type, created_at: createdAt })
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
