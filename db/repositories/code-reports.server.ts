import { sql } from "kysely";
import { getDb, getDialect, type DB } from "../client.server";
import { isUniqueViolation } from "../errors.server";
import { nextMonthStart, PAUSE_RULE, verdictOn } from "../report-rules";
import type { ReportOutcome, ReportReason } from "../schema";
import { figuresOverDays } from "./daily-figures.server";
import { writeEntering } from "./rotation.server";

/** "Did this code work?": answers, the automatic pause, the figures. */

// The rule itself (which answers count, pause or monthly cap) is db/report-rules.ts; docs/decisions/090 says why.
export { PAUSE_RULE };

/** The public figure ("92 % of 140 answers worked") covers this many days, and shows from this many answers. */
export const ANSWER_STATS = { days: 90, minAnswers: 5 } as const;

export type ReportRefusal = "unknown-draw" | "foreign-draw" | "already-answered" | "code-gone";
export type ReportResult = { ok: true; codeId: number; paused: boolean; capped: boolean } | { ok: false; reason: ReportRefusal };

/**
 * Records one answer for one draw (random_requests row) and applies the pause rule, in ONE
 * transaction: the answer and the pause it triggers land together or not at all. `platformId`
 * null accepts a draw of any platform (/random); otherwise the draw must be of that platform.
 * A refusal writes nothing.
 */
export async function recordCodeReport(
  input: { requestId: number; platformId: number | null; outcome: ReportOutcome; reason?: ReportReason | null; ipHash: string },
  now = new Date(),
  db: DB = getDb(),
): Promise<ReportResult> {
  try {
    return await db.transaction().execute(async (trx): Promise<ReportResult> => {
      const draw = await trx
        .selectFrom("random_requests")
        .select(["id", "platform_id", "served_code_id"])
        .where("id", "=", input.requestId)
        .executeTakeFirst();
      if (!draw) return { ok: false, reason: "unknown-draw" };
      if (input.platformId !== null && draw.platform_id !== input.platformId) return { ok: false, reason: "foreign-draw" };
      if (draw.served_code_id === null) return { ok: false, reason: "code-gone" };
      const answered = await trx
        .selectFrom("code_reports")
        .select("id")
        .where("random_request_id", "=", draw.id)
        .executeTakeFirst();
      if (answered) return { ok: false, reason: "already-answered" };
      await trx
        .insertInto("code_reports")
        .values({
          random_request_id: draw.id,
          code_id: draw.served_code_id,
          platform_id: draw.platform_id,
          outcome: input.outcome,
          // A reason only qualifies a failure.
          reason: input.outcome === "failed" ? (input.reason ?? null) : null,
          ip_hash: input.ipHash,
          created_at: now.toISOString(),
        })
        .execute();
      const verdict = input.outcome === "failed" ? await applyPauseRule(draw.served_code_id, now, trx) : null;
      return { ok: true, codeId: draw.served_code_id, paused: verdict === "pause", capped: verdict === "cap" };
    });
  } catch (error) {
    // Two answers for one draw at once: the unique index decides, the second writes nothing.
    if (isUniqueViolation(error, { table: "code_reports", column: "random_request_id" })) {
      return { ok: false, reason: "already-answered" };
    }
    throw error;
  }
}

/**
 * The rule, inside the answer's transaction: pauses the code, or caps it until the first day of
 * next month (UTC). Answers before that day then no longer count (`reports_reset_at`), so the code
 * comes back afresh. Returns what it did just now.
 */
async function applyPauseRule(codeId: number, now: Date, trx: DB): Promise<"pause" | "cap" | null> {
  // PostgreSQL: answers for one code take turns (row lock), so each one's rule sees the answers before it.
  const code = await trx
    .selectFrom("referral_codes")
    .select(["is_active", "paused_reason", "reports_reset_at"])
    .where("id", "=", codeId)
    .$if(getDialect() === "postgres", (qb) => qb.forUpdate())
    .executeTakeFirst();
  // Deactivated by an admin: the admin decides. Paused by its owner: the rule still applies, so a
  // failing code cannot come back by its owner's resume (a pause for reports only the admin lifts).
  const ownerPaused = code?.is_active === 0 && code.paused_reason === "owner";
  if (!code || (code.is_active !== 1 && !ownerPaused)) return null;
  let recent = trx
    .selectFrom("code_reports")
    .select(["outcome", "reason", "ip_hash"])
    .where("code_id", "=", codeId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(PAUSE_RULE.window);
  // Also true while a code is capped: its reset lies ahead, so no answer counts until it is back.
  if (code.reports_reset_at) recent = recent.where("created_at", ">", code.reports_reset_at);
  const verdict = verdictOn(await recent.execute());
  if (verdict === null) return null;
  if (verdict === "cap") {
    const until = nextMonthStart(now).toISOString();
    await trx
      .updateTable("referral_codes")
      .set({ capped_until: until, reports_reset_at: until })
      .where("id", "=", codeId)
      .execute();
    return "cap";
  }
  const result = await trx
    .updateTable("referral_codes")
    .set({ is_active: 0, paused_reason: "reports", paused_at: now.toISOString() })
    .where("id", "=", codeId)
    .where((eb) => eb.or([eb("is_active", "=", 1), eb("paused_reason", "=", "owner")]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? "pause" : null;
}

/** The answer already given for a draw, if any. */
export async function getDrawAnswer(requestId: number, db: DB = getDb()): Promise<ReportOutcome | null> {
  const row = await db.selectFrom("code_reports").select("outcome").where("random_request_id", "=", requestId).executeTakeFirst();
  return row?.outcome ?? null;
}

export interface AnswerStats {
  answers: number;
  worked: number;
}

/** Answers about a platform's codes over the last ANSWER_STATS.days Paris days (today included): daily figures and recent rows. */
export async function platformAnswerStats(platformId: number, now = new Date(), db: DB = getDb()): Promise<AnswerStats> {
  const figures = (await figuresOverDays(ANSWER_STATS.days, now, platformId, db)).get(platformId);
  return { answers: (figures?.worked ?? 0) + (figures?.failed ?? 0), worked: figures?.worked ?? 0 };
}

/** All-time answers about one code, and when it last worked: the rows still kept plus those the retention job counted before removing them. */
export async function codeAnswerSummary(
  codeId: number,
  db: DB = getDb(),
): Promise<{ worked: number; failed: number; lastWorkedAt: string | null }> {
  const [row, removed] = await Promise.all([
    db
      .selectFrom("code_reports")
      .select((eb) => [
        eb.fn.sum<number | null>(eb.case().when("outcome", "=", "worked").then(1).else(0).end()).as("worked"),
        eb.fn.sum<number | null>(eb.case().when("outcome", "=", "failed").then(1).else(0).end()).as("failed"),
        eb.fn
          .max<string | null>(eb.case().when("outcome", "=", "worked").then(eb.ref("created_at")).else(null).end())
          .as("last_worked_at"),
      ])
      .where("code_id", "=", codeId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("code_answer_totals")
      .select(["worked", "failed", "last_worked_at"])
      .where("code_id", "=", codeId)
      .executeTakeFirst(),
  ]);
  const kept = row.last_worked_at ?? null;
  const older = removed?.last_worked_at ?? null;
  return {
    worked: Number(row.worked ?? 0) + Number(removed?.worked ?? 0),
    failed: Number(row.failed ?? 0) + Number(removed?.failed ?? 0),
    lastWorkedAt: kept !== null && (older === null || kept > older) ? kept : older,
  };
}

/**
 * Codes paused after failing answers, the 50 newest pauses first, each with its latest answers
 * (admin; the codes tab's "paused" filter pages through all of them).
 */
export async function listCodesPausedByReports(db: DB = getDb()) {
  const codes = await db
    .selectFrom("referral_codes as c")
    .innerJoin("platforms as p", "p.id", "c.platform_id")
    .select(["c.id", "c.code", "c.paused_at", "c.times_served", "p.name as platform_name", "p.slug as platform_slug"])
    .where("c.paused_reason", "=", "reports")
    .orderBy("c.paused_at", "desc")
    .orderBy("c.id", "desc")
    .limit(50)
    .execute();
  // Each code's last answers (the ones the pause rule read): a few steps down code_reports_code_idx
  // per code, one statement text for all of them (kept prepared), never a code's whole history.
  return Promise.all(
    codes.map(async (c) => ({
      ...c,
      reports: await db
        .selectFrom("code_reports")
        .select(["id", "code_id", "outcome", "reason", "ip_hash", "created_at"])
        .where("code_id", "=", c.id)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(sql.lit(PAUSE_RULE.window))
        .execute(),
    })),
  );
}

/**
 * Back into the rotation after an admin checked it. Answers given so far no longer count towards
 * the next automatic pause (they were judged), so the code starts afresh.
 */
export async function restoreReportedCode(id: number, now = new Date(), db: DB = getDb()): Promise<boolean> {
  // Back in the rotation at the level of the others (rotation.server.ts, rule 4).
  const result = await writeEntering(db, id, now, (trx) =>
    trx
      .updateTable("referral_codes")
      .set({ is_active: 1, paused_reason: null, paused_at: null, reports_reset_at: now.toISOString() })
      .where("id", "=", id)
      .where("paused_reason", "=", "reports")
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
}

/** An admin puts a capped code back before its month is over; answers so far no longer count. */
export async function liftMonthlyCap(id: number, now = new Date(), db: DB = getDb()): Promise<boolean> {
  const at = now.toISOString();
  // Back in the rotation at the level of the others (rotation.server.ts, rule 4).
  const result = await writeEntering(db, id, now, (trx) =>
    trx
      .updateTable("referral_codes")
      .set({ capped_until: null, reports_reset_at: at })
      .where("id", "=", id)
      .where("capped_until", ">", at)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
}
