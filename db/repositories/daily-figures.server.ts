import { sql } from "kysely";
import { getDb, type DB } from "../client.server";
import { parisDayStarts, siteDayKey, startOfDayIso } from "../time";
import { countAllCodes, countAvailableByPlatform } from "./code-counts.server";

/**
 * Figures over the draw log and the answers, whatever their age (decision 193): complete Paris
 * days before the roll-up mark come from platform_daily_stats (one row per platform and day), the
 * rest from the raw rows, which the roll-up job keeps a while longer (decision 192). Every figure
 * reads a bounded number of daily rows plus, when the job is up to date, today's raw rows only.
 *
 * The roll-up that writes the daily rows is rollup.server.ts; what the job removes, history.server.ts.
 */

/** The name of the draws' and answers' roll-up mark in history_rollup. */
export const ROLLUP = "draws-and-answers";

/** Every raw draw and answer before this instant is counted in platform_daily_stats; null: none yet. */
export async function rolledUpUntil(db: DB = getDb()): Promise<string | null> {
  const row = await db.selectFrom("history_rollup").select("until").where("name", "=", ROLLUP).executeTakeFirst();
  return row?.until ?? null;
}

export interface DayFigures {
  draws: number;
  worked: number;
  failed: number;
}

const empty = (): DayFigures => ({ draws: 0, worked: 0, failed: 0 });

/**
 * Draws and answers per platform and per day over consecutive Paris days (`dayStarts`, oldest
 * first, each a Paris midnight; the last day ends at `end`). Optionally one platform only.
 * Returns, per platform id, one DayFigures per day.
 */
export async function figuresPerDay(
  dayStarts: readonly string[],
  end: string,
  platformId: number | null,
  db: DB = getDb(),
): Promise<Map<number, DayFigures[]>> {
  const until = await rolledUpUntil(db);
  const result = new Map<number, DayFigures[]>();
  const slot = (platform: number) => {
    let days = result.get(platform);
    if (!days) result.set(platform, (days = dayStarts.map(empty)));
    return days;
  };
  const rolled = until === null ? 0 : dayStarts.filter((start) => start < until).length;
  if (rolled > 0) {
    const index = new Map(dayStarts.slice(0, rolled).map((start, i) => [siteDayKey(start), i]));
    let query = db
      .selectFrom("platform_daily_stats")
      .select(["platform_id", "day", "draws", "answers_worked", "answers_failed"])
      .where("day", ">=", siteDayKey(dayStarts[0]!))
      .where("day", "<=", siteDayKey(dayStarts[rolled - 1]!));
    if (platformId !== null) query = query.where("platform_id", "=", platformId);
    for (const row of await query.execute()) {
      const i = index.get(row.day);
      if (i === undefined) continue;
      const figures = slot(row.platform_id)[i]!;
      figures.draws += Number(row.draws);
      figures.worked += Number(row.answers_worked);
      figures.failed += Number(row.answers_failed);
    }
  }
  if (rolled < dayStarts.length) {
    const starts = dayStarts.slice(rolled);
    const ends = [...starts.slice(1), end];
    const raw = await rawFiguresPerDay(starts, ends, platformId, db);
    for (const [platform, days] of raw) {
      const target = slot(platform);
      days.forEach((figures, i) => (target[rolled + i] = figures));
    }
  }
  return result;
}

/** The raw rows' figures per platform over a few days: one indexed range per log, a conditional sum per day. */
async function rawFiguresPerDay(starts: string[], ends: string[], platformId: number | null, db: DB) {
  const inDay = (i: number) => sql<boolean>`created_at >= ${starts[i]!} and created_at < ${ends[i]!}`;
  let draws = db
    .selectFrom("random_requests")
    .select((eb) => [
      "platform_id",
      ...starts.map((_, i) => eb.fn.sum<number>(sql`case when ${inDay(i)} then 1 else 0 end`).as(`d${i}`)),
    ])
    .where("created_at", ">=", starts[0]!)
    .where("created_at", "<", ends[ends.length - 1]!)
    .groupBy("platform_id");
  let answers = db
    .selectFrom("code_reports")
    .select((eb) => [
      "platform_id",
      ...starts.flatMap((_, i) => [
        eb.fn.sum<number>(sql`case when ${inDay(i)} and outcome = 'worked' then 1 else 0 end`).as(`w${i}`),
        eb.fn.sum<number>(sql`case when ${inDay(i)} and outcome = 'failed' then 1 else 0 end`).as(`f${i}`),
      ]),
    ])
    .where("created_at", ">=", starts[0]!)
    .where("created_at", "<", ends[ends.length - 1]!)
    .groupBy("platform_id");
  if (platformId !== null) {
    draws = draws.where("platform_id", "=", platformId);
    answers = answers.where("platform_id", "=", platformId);
  }
  const [drawRows, answerRows] = await Promise.all([draws.execute(), answers.execute()]);
  const result = new Map<number, DayFigures[]>();
  const slot = (platform: number) => {
    let days = result.get(platform);
    if (!days) result.set(platform, (days = starts.map(empty)));
    return days;
  };
  for (const row of drawRows as Array<Record<string, number | null>>) {
    const days = slot(Number(row.platform_id));
    starts.forEach((_, i) => (days[i]!.draws = Number(row[`d${i}`] ?? 0)));
  }
  for (const row of answerRows as Array<Record<string, number | null>>) {
    const days = slot(Number(row.platform_id));
    starts.forEach((_, i) => {
      days[i]!.worked = Number(row[`w${i}`] ?? 0);
      days[i]!.failed = Number(row[`f${i}`] ?? 0);
    });
  }
  return result;
}

/**
 * Draws and answers per platform over the last `days` Paris days (today included): the rolled-up
 * days summed by the database (one row per platform), the rest from the log.
 */
export async function figuresOverDays(days: number, now = new Date(), platformId: number | null = null, db: DB = getDb()) {
  const starts = parisDayStarts(days, now);
  const until = await rolledUpUntil(db);
  const rolled = until === null ? 0 : starts.filter((start) => start < until).length;
  const totals = new Map<number, DayFigures>();
  const add = (platform: number, f: DayFigures) => {
    const t = totals.get(platform) ?? empty();
    totals.set(platform, { draws: t.draws + f.draws, worked: t.worked + f.worked, failed: t.failed + f.failed });
  };
  if (rolled > 0) {
    let query = db
      .selectFrom("platform_daily_stats")
      .select((eb) => [
        "platform_id",
        eb.fn.sum<number>("draws").as("draws"),
        eb.fn.sum<number>("answers_worked").as("worked"),
        eb.fn.sum<number>("answers_failed").as("failed"),
      ])
      .where("day", ">=", siteDayKey(starts[0]!))
      .where("day", "<=", siteDayKey(starts[rolled - 1]!))
      .groupBy("platform_id");
    if (platformId !== null) query = query.where("platform_id", "=", platformId);
    for (const row of await query.execute()) {
      add(row.platform_id, { draws: Number(row.draws ?? 0), worked: Number(row.worked ?? 0), failed: Number(row.failed ?? 0) });
    }
  }
  if (rolled < starts.length) {
    // The days not rolled up yet, as one span (usually today alone).
    const raw = await rawFiguresPerDay([starts[rolled]!], ["9999"], platformId, db);
    for (const [platform, list] of raw) add(platform, list[0]!);
  }
  return totals;
}

/** Every draw ever logged, rolled up or not (the dashboard's total). */
export async function countAllDraws(db: DB = getDb()): Promise<number> {
  const until = await rolledUpUntil(db);
  const [rolled, raw] = await Promise.all([
    until === null
      ? Promise.resolve({ n: 0 })
      : db
          .selectFrom("platform_daily_stats")
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("draws"), eb.lit(0)).as("n"))
          .where("day", "<", siteDayKey(until))
          .executeTakeFirstOrThrow(),
    db
      .selectFrom("random_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .$if(until !== null, (qb) => qb.where("created_at", ">=", until!))
      .executeTakeFirstOrThrow(),
  ]);
  return Number(rolled.n) + Number(raw.n);
}

const CHART_DAYS = 30;

/**
 * Draws per Paris day over the last 30 days (today included), oldest first: rolled-up days from the
 * daily figures, the others from the log.
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

/**
 * The dashboard's four cards; "today" starts at midnight Europe/Paris. Codes are counted from the
 * counts kept by triggers (decision 194); draws from the daily figures plus the log's recent rows.
 */
export async function getDashboardStats(now = new Date(), db: DB = getDb()) {
  const [total, available, allDraws, today] = await Promise.all([
    countAllCodes(db),
    countAvailableByPlatform(now, db),
    countAllDraws(db),
    figuresPerDay([startOfDayIso(now)], "9999", null, db),
  ]);
  let todayRequests = 0;
  for (const days of today.values()) todayRequests += days[0]!.draws;
  return {
    activeCodes: [...available.values()].reduce((sum, n) => sum + n, 0),
    totalCodes: total,
    todayRequests,
    totalRequests: allDraws,
  };
}
