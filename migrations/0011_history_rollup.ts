import { sql, type Kysely } from "kysely";

// `any`: a migration is frozen in time and must not depend on today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Years of history without slower pages (decisions 192 and 193).
 * - platform_daily_stats: draws and answers per platform and Paris day (`YYYY-MM-DD`), written by
 *   the roll-up job for every complete day before `history_rollup.until`. Figures read these rows
 *   for rolled-up days and the raw log from that instant on, so old raw rows can go.
 * - code_answer_totals: a code's answers whose raw rows were removed by the retention job (the
 *   owner page's all-time figure adds them to the rows still there).
 * - history_rollup: one row per rolled-up log; `until` is the instant (a Paris midnight) before
 *   which every raw row is counted in platform_daily_stats.
 * - Indexes that let the hot figures read an index alone (available codes, a platform's newest
 *   active code, the answers' outcome, the draw log by time and platform) or find old rows, and
 *   one on assistant_usage's link, which removing an old conversation updates.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable("platform_daily_stats")
    .addColumn("platform_id", "integer", (c) => c.notNull().references("platforms.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull().check(sql`length(day) = 10`))
    .addColumn("draws", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("answers_worked", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("answers_failed", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("platform_daily_stats_pk", ["platform_id", "day"])
    .execute();
  await db.schema
    .createIndex("platform_daily_stats_day_idx")
    .on("platform_daily_stats")
    .columns(["day", "platform_id", "draws", "answers_worked", "answers_failed"])
    .execute();

  await db.schema
    .createTable("code_answer_totals")
    .addColumn("code_id", "integer", (c) => c.primaryKey().references("referral_codes.id").onDelete("cascade"))
    .addColumn("worked", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_worked_at", "text")
    .execute();

  await db.schema
    .createTable("history_rollup")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("until", "text", (c) => c.notNull())
    .execute();

  // Codes a draw could serve: counted from the index alone (platform, then expiry).
  await db.schema
    .createIndex("referral_codes_available_idx")
    .on("referral_codes")
    .columns(["platform_id", "is_permanent", "expires_at"])
    .where(sql.ref("is_active"), "=", 1)
    .execute();
  // A platform's newest active code (the sitemap's lastmod): one step down the index.
  await db.schema
    .createIndex("referral_codes_active_created_idx")
    .on("referral_codes")
    .columns(["platform_id", "created_at"])
    .where(sql.ref("is_active"), "=", 1)
    .execute();

  // The draw log by time with its platform (today's draws per platform, retention by age).
  await db.schema
    .createIndex("random_requests_created_platform_idx")
    .on("random_requests")
    .columns(["created_at", "platform_id"])
    .execute();
  // ifExists: another migration of the same batch may have replaced it already.
  await db.schema.dropIndex("random_requests_created_idx").ifExists().execute();

  // A platform's answers by time with their outcome; answers by age (retention).
  await db.schema
    .createIndex("code_reports_platform_outcome_idx")
    .on("code_reports")
    .columns(["platform_id", "created_at", "outcome"])
    .execute();
  await db.schema.dropIndex("code_reports_platform_idx").ifExists().execute();
  await db.schema
    .createIndex("code_reports_created_idx")
    .on("code_reports")
    .columns(["created_at", "platform_id", "outcome"])
    .execute();

  // Removing an old conversation sets its usage rows' link to null: found by index, not by a scan.
  await db.schema.createIndex("assistant_usage_conversation_idx").on("assistant_usage").column("conversation_id").execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex("assistant_usage_conversation_idx").execute();
  await db.schema.dropIndex("code_reports_created_idx").execute();
  await db.schema.createIndex("code_reports_platform_idx").on("code_reports").columns(["platform_id", "created_at"]).execute();
  await db.schema.dropIndex("code_reports_platform_outcome_idx").execute();
  await db.schema.createIndex("random_requests_created_idx").on("random_requests").column("created_at").execute();
  await db.schema.dropIndex("random_requests_created_platform_idx").execute();
  await db.schema.dropIndex("referral_codes_active_created_idx").execute();
  await db.schema.dropIndex("referral_codes_available_idx").execute();
  await db.schema.dropTable("history_rollup").execute();
  await db.schema.dropTable("code_answer_totals").execute();
  await db.schema.dropTable("platform_daily_stats").execute();
}
