import { sql } from "kysely";
import { getDb, getDialect, type DB } from "../client.server";
import { nextDayStartIso, parisDayStarts, siteDayKey, startOfDayIso } from "../time";

/**
 * Figures over the draw log and the answers, whatever their age (decision 193): complete Paris
 * days before the roll-up mark come from platform_daily_stats (one row per platform and day), the
 * rest from the raw rows, which the roll-up job keeps a while longer (decision 192). Every figure
 * reads a bounded number of daily rows plus, when the job is up to date, today's raw rows only.
 */

const ROLLUP = "draws-and-answers";

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

// ---------- the roll-up and retention job ----------

/** The advisory lock (class, key) of the history job on PostgreSQL; draws use 1901, the code cleanup 1902/1. */
const HISTORY_LOCK = [1902, 2] as const;

/**
 * Runs `work` in one transaction that holds the history job's lock. On PostgreSQL several processes
 * run the job: one that finds the lock taken gets null and stops its run. SQLite's writes take turns.
 */
async function underJobLock<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T | null> {
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

/**
 * How long raw rows are kept (decision 192). A raw draw or answer also waits until its day is
 * rolled up, so no figure ever loses it.
 */
export const RETENTION = {
  /** Raw draws: a draw's result page and its "did it work?" answer live this long. */
  drawDays: 30,
  /** Raw answers: beyond this, only each code's last ANSWERS_KEPT_PER_CODE stay (the pause rule reads them). */
  answerDays: 90,
  answersKeptPerCode: 10,
  /** Game scores (the leaderboard shows 30 days). */
  scoreDays: 180,
  /** Assistant conversations untouched this long go, with their messages. */
  conversationDays: 180,
} as const;

const DAY_MS = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
const earlier = (a: string, b: string | null) => (b === null || a < b ? a : b);

/**
 * One batch of old answers: each code keeps its last answersKeptPerCode answers whatever their age
 * (the pause rule and the admin's list read them). The removed ones are added to their code's
 * code_answer_totals in the same transaction, so the owner page's all-time figure does not move.
 * Returns how many went, or null when another process holds the lock.
 */
export async function pruneAnswers(now: Date, batch: number, db: DB = getDb()): Promise<number | null> {
  return underJobLock(db, async (trx) => {
    const until = await rolledUpUntil(trx);
    if (until === null) return 0;
    const cutoff = earlier(daysBefore(now, RETENTION.answerDays), until);
    const old = await trx
      .selectFrom("code_reports as r")
      .select(["r.id", "r.code_id", "r.outcome", "r.created_at"])
      .where("r.created_at", "<", cutoff)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom("code_reports as n")
            .select("n.id")
            .whereRef("n.code_id", "=", "r.code_id")
            .whereRef("n.created_at", ">=", "r.created_at")
            .where((eb) => eb.or([eb("n.created_at", ">", eb.ref("r.created_at")), eb("n.id", ">", eb.ref("r.id"))]))
            .orderBy("n.created_at")
            .orderBy("n.id")
            .limit(1)
            .offset(RETENTION.answersKeptPerCode - 1),
        ),
      )
      .orderBy("r.created_at")
      .limit(batch)
      .execute();
    if (old.length === 0) return 0;
    const totals = new Map<number, { worked: number; failed: number; lastWorked: string | null }>();
    for (const r of old) {
      let t = totals.get(r.code_id);
      if (!t) totals.set(r.code_id, (t = { worked: 0, failed: 0, lastWorked: null }));
      if (r.outcome === "worked") {
        t.worked++;
        if (t.lastWorked === null || r.created_at > t.lastWorked) t.lastWorked = r.created_at;
      } else t.failed++;
    }
    await trx
      .insertInto("code_answer_totals")
      .values([...totals].map(([code_id, t]) => ({ code_id, worked: t.worked, failed: t.failed, last_worked_at: t.lastWorked })))
      .onConflict((oc) =>
        oc.column("code_id").doUpdateSet((eb) => ({
          worked: eb("code_answer_totals.worked", "+", eb.ref("excluded.worked")),
          failed: eb("code_answer_totals.failed", "+", eb.ref("excluded.failed")),
          last_worked_at: sql`case when code_answer_totals.last_worked_at is null or excluded.last_worked_at > code_answer_totals.last_worked_at then excluded.last_worked_at else code_answer_totals.last_worked_at end`,
        })),
      )
      .execute();
    await trx
      .deleteFrom("code_reports")
      .where(
        "id",
        "in",
        old.map((r) => r.id),
      )
      .execute();
    return old.length;
  });
}

/**
 * One batch of old raw draws: rolled up, older than drawDays, and not the draw of an answer still
 * kept (an answer goes with its draw). `after` continues where the previous batch stopped.
 */
export async function pruneDraws(
  now: Date,
  batch: number,
  after: string | null,
  db: DB = getDb(),
): Promise<{ removed: number; next: string | null } | null> {
  return underJobLock(db, async (trx) => {
    const until = await rolledUpUntil(trx);
    if (until === null) return { removed: 0, next: null };
    const cutoff = earlier(daysBefore(now, RETENTION.drawDays), until);
    // Answered draws stay with their answer: skipped here by the unique index on the answer's draw.
    const old = await trx
      .selectFrom("random_requests as r")
      .select(["r.id", "r.created_at"])
      .where("r.created_at", "<", cutoff)
      .$if(after !== null, (qb) => qb.where("r.created_at", ">=", after!))
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("code_reports as a").select("a.id").whereRef("a.random_request_id", "=", "r.id"))),
      )
      .orderBy("r.created_at")
      .limit(batch)
      .execute();
    if (old.length === 0) return { removed: 0, next: null };
    const ids = old.map((r) => r.id);
    await trx.deleteFrom("random_requests").where("id", "in", ids).execute();
    // The next batch starts at this batch's last instant: the walk never goes back over kept rows.
    const next = old.length < batch ? null : old[old.length - 1]!.created_at;
    return { removed: ids.length, next: next === after ? null : next };
  });
}

/**
 * One batch of rows that no rule needs any more: old game scores, old conversations, votes of
 * rejected suggestions; and monthly caps that have ended, cleared (the code is counted in
 * platform_code_counts again, so the set of ended caps the counts read stays small: decision 194).
 */
export async function pruneOther(
  now: Date,
  batch: number,
  db: DB = getDb(),
): Promise<{ scores: number; conversations: number; votes: number; caps: number } | null> {
  return underJobLock(db, async (trx) => {
    const scores = await trx
      .deleteFrom("game_scores")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("game_scores")
          .select("id")
          .where("created_at", "<", daysBefore(now, RETENTION.scoreDays))
          .orderBy("created_at")
          .limit(batch),
      )
      .executeTakeFirst();
    // Messages go with their conversation (cascade): fewer conversations per batch.
    const conversations = await trx
      .deleteFrom("assistant_conversations")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("assistant_conversations")
          .select("id")
          .where("updated_at", "<", daysBefore(now, RETENTION.conversationDays))
          .orderBy("updated_at")
          .limit(Math.max(1, Math.floor(batch / 50))),
      )
      .executeTakeFirst();
    // A rejected suggestion takes no vote any more; its count stays on the suggestion.
    const votes = await trx
      .deleteFrom("platform_suggestion_votes")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("platform_suggestion_votes as v")
          .innerJoin("platform_suggestions as s", "s.id", "v.suggestion_id")
          .select("v.id")
          .where("s.status", "=", "rejected")
          .limit(batch),
      )
      .executeTakeFirst();
    const caps = await trx
      .updateTable("referral_codes")
      .set({ capped_until: null })
      .where("id", "in", (eb) =>
        eb.selectFrom("referral_codes").select("id").where("capped_until", "<=", now.toISOString()).limit(batch),
      )
      .executeTakeFirst();
    return {
      scores: Number(scores.numDeletedRows),
      conversations: Number(conversations.numDeletedRows),
      votes: Number(votes.numDeletedRows),
      caps: Number(caps.numUpdatedRows),
    };
  });
}

export interface HistoryRunSummary {
  daysRolledUp: number;
  answers: number;
  draws: number;
  scores: number;
  conversations: number;
  votes: number;
  /** Monthly caps that had ended, cleared. */
  caps: number;
  /** Another process held the job's lock (PostgreSQL): this run stopped early. */
  skipped: boolean;
}

/**
 * The whole job: roll up every complete day, then remove what no rule needs, in small transactions
 * with a pause between them so draws and pages keep their turn on the connection.
 */
export async function runHistoryJob({
  now = new Date(),
  batch = 2000,
  pauseMs = 5,
  db = getDb(),
}: { now?: Date; batch?: number; pauseMs?: number; db?: DB } = {}): Promise<HistoryRunSummary> {
  const summary: HistoryRunSummary = {
    daysRolledUp: 0,
    answers: 0,
    draws: 0,
    scores: 0,
    conversations: 0,
    votes: 0,
    caps: 0,
    skipped: false,
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs));
  for (;;) {
    const day = await rollUpNextDay(now, db);
    if (day === null) return { ...summary, skipped: true };
    if (day === "done") break;
    summary.daysRolledUp++;
    await pause();
  }
  for (;;) {
    const removed = await pruneAnswers(now, batch, db);
    if (removed === null) return { ...summary, skipped: true };
    summary.answers += removed;
    if (removed < batch) break;
    await pause();
  }
  let after: string | null = null;
  for (;;) {
    const step: Awaited<ReturnType<typeof pruneDraws>> = await pruneDraws(now, batch, after, db);
    if (step === null) return { ...summary, skipped: true };
    summary.draws += step.removed;
    if (step.next === null) break;
    after = step.next;
    await pause();
  }
  for (;;) {
    const step = await pruneOther(now, batch, db);
    if (step === null) return { ...summary, skipped: true };
    summary.scores += step.scores;
    summary.conversations += step.conversations;
    summary.votes += step.votes;
    summary.caps += step.caps;
    if (
      step.scores < batch &&
      step.votes < batch &&
      step.caps < batch &&
      step.conversations < Math.max(1, Math.floor(batch / 50))
    )
      break;
    await pause();
  }
  return summary;
}
