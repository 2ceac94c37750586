import { sql } from "kysely";
import { getDb, type DB } from "../client.server";
import { rolledUpUntil } from "./daily-figures.server";
import { rollUpNextDay, underJobLock } from "./rollup.server";
import { liftEndedCapsQuery } from "./rotation.server";
import { RETENTION } from "../retention";

/**
 * The history job (decision 192): roll up every complete day (rollup.server.ts), then remove, in
 * small batches, the raw rows no figure and no rule needs any more.
 */

/**
 * How long raw rows are kept (decision 192): the periods live in db/retention.ts, which the privacy
 * page reads too. A raw draw or answer also waits until its day is rolled up, so no figure ever
 * loses it.
 */
export { RETENTION };

const DAY_MS = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
const earlier = (a: string, b: string | null) => (b === null || a < b ? a : b);

/** Where a walk over a table by (created_at, id) stopped: the next window starts after it. */
export interface WalkPosition {
  at: string;
  id: number;
}

/**
 * The next window of a walk over `table`'s rows older than `cutoff`: at most `batch` rows strictly
 * after `after` in (created_at, id) order (the created_at bound first, for the index), and where the
 * window after it starts (null: this was the last).
 */
async function walkWindow(
  trx: DB,
  table: "code_reports" | "random_requests",
  cutoff: string,
  after: WalkPosition | null,
  batch: number,
): Promise<{ window: Array<{ id: number; created_at: string }>; next: WalkPosition | null }> {
  // Both tables have the columns read here; Kysely's types follow one of them.
  const window = await trx
    .selectFrom(table as "code_reports")
    .select(["id", "created_at"])
    .where("created_at", "<", cutoff)
    .$if(after !== null, (qb) =>
      qb.where("created_at", ">=", after!.at).where((eb) => eb.or([eb("created_at", ">", after!.at), eb("id", ">", after!.id)])),
    )
    .orderBy("created_at")
    .orderBy("id")
    .limit(batch)
    .execute();
  const last = window.at(-1);
  return { window, next: last && window.length === batch ? { at: last.created_at, id: last.id } : null };
}

/**
 * One window of the walk over old answers: at most `batch` answers older than the cutoff are looked
 * at, in (created_at, id) order from `after`, and those their code does not need are removed. Each
 * code keeps its last answersKeptPerCode answers whatever their age (the pause rule and the admin's
 * list read them), so most old answers may be kept: a window bounds the work of one transaction
 * whatever their number (decision 288; one statement looking for removable answers among all of them
 * took 300-800 ms on the scale data set). The removed ones are added to their code's
 * code_answer_totals in the same transaction, so the owner page's all-time figure does not move.
 * Returns how many went and where the next window starts (null: the walk is done), or null when
 * another process holds the lock.
 */
export async function pruneAnswers(
  now: Date,
  batch: number,
  after: WalkPosition | null,
  db: DB = getDb(),
): Promise<{ removed: number; next: WalkPosition | null } | null> {
  return underJobLock(db, async (trx) => {
    const until = await rolledUpUntil(trx);
    if (until === null) return { removed: 0, next: null };
    const cutoff = earlier(daysBefore(now, RETENTION.answerDays), until);
    const { window, next } = await walkWindow(trx, "code_reports", cutoff, after, batch);
    if (window.length === 0) return { removed: 0, next: null };
    const old = await trx
      .selectFrom("code_reports as r")
      .select(["r.id", "r.code_id", "r.outcome", "r.created_at"])
      .where(
        "r.id",
        "in",
        window.map((r) => r.id),
      )
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
      .execute();
    if (old.length === 0) return { removed: 0, next };
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
    return { removed: old.length, next };
  });
}

/**
 * One window of the walk over old raw draws: at most `batch` draws rolled up and older than
 * drawDays are looked at, in (created_at, id) order from `after`, and removed unless an answer
 * still kept is theirs (an answer goes with its draw). Answered draws stay as long as their answer,
 * each code's last answers forever: a window bounds the work of one transaction whatever their
 * number (decision 288).
 */
export async function pruneDraws(
  now: Date,
  batch: number,
  after: WalkPosition | null,
  db: DB = getDb(),
): Promise<{ removed: number; next: WalkPosition | null } | null> {
  return underJobLock(db, async (trx) => {
    const until = await rolledUpUntil(trx);
    if (until === null) return { removed: 0, next: null };
    const cutoff = earlier(daysBefore(now, RETENTION.drawDays), until);
    const { window, next } = await walkWindow(trx, "random_requests", cutoff, after, batch);
    if (window.length === 0) return { removed: 0, next: null };
    const ids = window.map((r) => r.id);
    // Answered draws stay with their answer: found by the unique index on the answer's draw.
    const answered = new Set(
      (await trx.selectFrom("code_reports").select("random_request_id").where("random_request_id", "in", ids).execute()).map(
        (r) => r.random_request_id,
      ),
    );
    const gone = ids.filter((id) => !answered.has(id));
    if (gone.length > 0) await trx.deleteFrom("random_requests").where("id", "in", gone).execute();
    return { removed: gone.length, next };
  });
}

/**
 * One batch of rows that no rule needs any more: old game scores, old conversations, votes of
 * rejected suggestions, expired admin sessions; and monthly caps that have ended, cleared (the code
 * is counted in platform_code_counts again, so the set of ended caps the counts read stays small:
 * decision 194).
 */
export async function pruneOther(
  now: Date,
  batch: number,
  db: DB = getDb(),
): Promise<{ scores: number; conversations: number; votes: number; sessions: number; caps: number } | null> {
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
    // A session past its idle expiry can never be used again (getSessionUser refuses it); one that
    // was not used after it had expired stayed in the table for good (decision 289).
    const sessions = await trx
      .deleteFrom("sessions")
      .where("id", "in", (eb) =>
        eb.selectFrom("sessions").select("id").where("expires_at", "<=", now.toISOString()).orderBy("expires_at").limit(batch),
      )
      .executeTakeFirst();
    // Ended caps are cleared with the codes raised to the level of the others (rotation.server.ts,
    // rule 4), as the draw itself does: clearing alone would let them in below everyone.
    const caps = await liftEndedCapsQuery(trx, now.toISOString(), null, batch).executeTakeFirst();
    return {
      scores: Number(scores.numDeletedRows),
      conversations: Number(conversations.numDeletedRows),
      votes: Number(votes.numDeletedRows),
      sessions: Number(sessions.numDeletedRows),
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
  /** Admin sessions past their expiry. */
  sessions: number;
  /** Monthly caps that had ended, cleared. */
  caps: number;
  /** Another process held the job's lock (PostgreSQL): this run stopped early. */
  skipped: boolean;
  /** The server began shutting down: this run stopped before its next transaction (the next run goes on). */
  interrupted: boolean;
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
  signal,
}: { now?: Date; batch?: number; pauseMs?: number; db?: DB; signal?: AbortSignal } = {}): Promise<HistoryRunSummary> {
  const summary: HistoryRunSummary = {
    daysRolledUp: 0,
    answers: 0,
    draws: 0,
    scores: 0,
    conversations: 0,
    votes: 0,
    sessions: 0,
    caps: 0,
    skipped: false,
    interrupted: false,
  };
  /** Waits `pauseMs`; true when the server is stopping and the run should end here (decision 294). */
  const pause = async () => {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    return signal?.aborted === true;
  };
  const interrupted = () => ({ ...summary, interrupted: true });
  for (;;) {
    if (signal?.aborted) return interrupted();
    const day = await rollUpNextDay(now, db);
    if (day === null) return { ...summary, skipped: true };
    if (day === "done") break;
    summary.daysRolledUp++;
    if (await pause()) return interrupted();
  }
  // A pause before every transaction, full batch or not: on SQLite a query holds the only thread,
  // and transactions chained without one held it for the whole job (about 1 s an hour on the scale
  // data set, decision 288).
  const walks = [
    ["answers", pruneAnswers],
    ["draws", pruneDraws],
  ] as const;
  for (const [counted, prune] of walks) {
    let after: WalkPosition | null = null;
    do {
      if (await pause()) return interrupted();
      const step: Awaited<ReturnType<typeof prune>> = await prune(now, batch, after, db);
      if (step === null) return { ...summary, skipped: true };
      summary[counted] += step.removed;
      after = step.next;
    } while (after !== null);
  }
  for (;;) {
    if (await pause()) return interrupted();
    const step = await pruneOther(now, batch, db);
    if (step === null) return { ...summary, skipped: true };
    summary.scores += step.scores;
    summary.conversations += step.conversations;
    summary.votes += step.votes;
    summary.sessions += step.sessions;
    summary.caps += step.caps;
    if (
      step.scores < batch &&
      step.votes < batch &&
      step.sessions < batch &&
      step.caps < batch &&
      step.conversations < Math.max(1, Math.floor(batch / 50))
    )
      break;
  }
  return summary;
}
