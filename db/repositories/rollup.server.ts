import { sql } from "kysely";
import { getDb, getDialect, type DB } from "../client.server";
import { nextDayStartIso, siteDayKey, startOfDayIso } from "../time";
import { ROLLUP, rolledUpUntil } from "./daily-figures.server";

/**
 * The roll-up: complete Paris days of draws and answers counted into platform_daily_stats, one day
 * per transaction, under the history job's lock (decision 192). Reads of the figures are
 * daily-figures.server.ts.
 */

/** The advisory lock (class, key) of the history job on PostgreSQL; draws use 1901, the code cleanup 1902/1. */
const HISTORY_LOCK = [1902, 2] as const;

/**
 * Runs `work` in one transaction that holds the history job's lock. On PostgreSQL several processes
 * run the job: one that finds the lock taken gets null and stops its run. SQLite's writes take turns.
 */
export async function underJobLock<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T | null> {
  return db.transaction().execute(async (trx) => {
    if (getDialect() === "postgres") {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${sql.lit(HISTORY_LOCK[0])}, ${sql.lit(HISTORY_LOCK[1])}) as locked`.execute(trx);
      if (!rows[0]?.locked) return null;
    }
    return work(trx);
  });
}

const SETTLE_MS = 10 * 60_000;

/**
 * Rolls up one complete Paris day (the first one not yet rolled up) into platform_daily_stats and
 * moves the mark past it, in one transaction. Days without any row are skipped in one step.
 * Returns the day rolled up, "done" when every complete day is, null when another process holds the lock.
 */
export async function rollUpNextDay(now = new Date(), db: DB = getDb()): Promise<string | "done" | null> {
  // A day is complete a few minutes after midnight: a draw stamped 23:59:59 may commit just after.
  const today = startOfDayIso(new Date(now.getTime() - SETTLE_MS));
  return underJobLock(db, async (trx) => {
    let from = await rolledUpUntil(trx);
    const first = async (table: "random_requests" | "code_reports") =>
      (
        await trx
          .selectFrom(table)
          .select("created_at")
          .$if(from !== null, (qb) => qb.where("created_at", ">=", from!))
          .orderBy("created_at")
          .limit(1)
          .executeTakeFirst()
      )?.created_at ?? null;
    // The next day holding a row; nothing before `today` left: the mark moves to today.
    const next = [await first("random_requests"), await first("code_reports")]
      .filter((at): at is string => at !== null)
      .sort()[0];
    const dayStart = next === undefined || next >= today ? today : startOfDayIso(new Date(next));
    if (from === null || dayStart > from) from = dayStart;
    if (from >= today) {
      await setMark(trx, today);
      return "done";
    }
    const end = nextDayStartIso(from);
    const day = siteDayKey(from);
    const [draws, answers] = await Promise.all([
      trx
        .selectFrom("random_requests")
        .select((eb) => ["platform_id", eb.fn.countAll<number>().as("n")])
        .where("created_at", ">=", from)
        .where("created_at", "<", end)
        .groupBy("platform_id")
        .execute(),
      trx
        .selectFrom("code_reports")
        .select((eb) => [
          "platform_id",
          eb.fn.sum<number>(sql`case when outcome = 'worked' then 1 else 0 end`).as("worked"),
          eb.fn.sum<number>(sql`case when outcome = 'failed' then 1 else 0 end`).as("failed"),
        ])
        .where("created_at", ">=", from)
        .where("created_at", "<", end)
        .groupBy("platform_id")
        .execute(),
    ]);
    const rows = new Map<
      number,
      { platform_id: number; day: string; draws: number; answers_worked: number; answers_failed: number }
    >();
    const row = (platform_id: number) => {
      let r = rows.get(platform_id);
      if (!r) rows.set(platform_id, (r = { platform_id, day, draws: 0, answers_worked: 0, answers_failed: 0 }));
      return r;
    };
    for (const d of draws) row(d.platform_id).draws = Number(d.n);
    for (const a of answers) {
      row(a.platform_id).answers_worked = Number(a.worked ?? 0);
      row(a.platform_id).answers_failed = Number(a.failed ?? 0);
    }
    if (rows.size > 0) {
      await trx
        .insertInto("platform_daily_stats")
        .values([...rows.values()])
        // A day is rolled up once (the mark moves in the same transaction); adding keeps it exact anyway.
        .onConflict((oc) =>
          oc.columns(["platform_id", "day"]).doUpdateSet((eb) => ({
            draws: eb("platform_daily_stats.draws", "+", eb.ref("excluded.draws")),
            answers_worked: eb("platform_daily_stats.answers_worked", "+", eb.ref("excluded.answers_worked")),
            answers_failed: eb("platform_daily_stats.answers_failed", "+", eb.ref("excluded.answers_failed")),
          })),
        )
        .execute();
    }
    await setMark(trx, end);
    return day;
  });
}

async function setMark(trx: DB, until: string) {
  await trx
    .insertInto("history_rollup")
    .values({ name: ROLLUP, until })
    .onConflict((oc) => oc.column("name").doUpdateSet({ until }))
    .execute();
}
