import { sql } from "kysely";
import { getDb, type DB } from "../client.server";
import { rolledUpUntil } from "./daily-figures.server";
import { rollUpNextDay, underJobLock } from "./rollup.server";

/**
 * The history job (decision 192): roll up every complete day (rollup.server.ts), then remove, in
 * small batches, the raw rows no figure and no rule needs any more.
 */

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
