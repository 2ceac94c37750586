import { sql, type Kysely } from "kysely";

// `any`: a migration is frozen in time and must not depend on today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The game's leaderboard and its single-use sessions.
 * - The leaderboard reads one device's last 30 days, best first: an index on (device_type, created_at)
 *   that also holds score and player_name answers it from the index alone, whatever the table's age.
 *   It replaces the narrower board index of 0001.
 * - A game session is a signed token (nothing stored when a game starts); its id is written here when
 *   a score is saved with it, in the same transaction, so it can serve once. Rows are useless once the
 *   token has expired and are removed then.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createIndex("game_scores_leaderboard_idx")
    .on("game_scores")
    .columns(["device_type", "created_at", "score", "player_name"])
    .execute();
  await db.schema.dropIndex("game_scores_board_idx").execute();

  await db.schema
    .createTable("game_sessions_used")
    .addColumn("id", "text", (c) => c.primaryKey().check(sql`length(id) BETWEEN 1 AND 64`))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("game_sessions_used_expires_idx").on("game_sessions_used").column("expires_at").execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable("game_sessions_used").execute();
  await db.schema
    .createIndex("game_scores_board_idx")
    .on("game_scores")
    .columns(["device_type", "created_at", "score"])
    .execute();
  await db.schema.dropIndex("game_scores_leaderboard_idx").execute();
}
