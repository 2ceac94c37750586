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

export type ReportRefusal = "unknown-draw" | "foreign-draw" | "already-answered" | "code-gone" | "too-old";
export type ReportResult = { ok: true; codeId: number; paused: boolean; capped: boolean } | { ok: false; reason: ReportRefusal };

/**
 * Records one answer for one draw (random_requests row) and applies the pause rule, in ONE
 * transaction: the answer and the pause it triggers land together or not at all. `platformId`
 * null accepts a draw of any platform (/random); otherwise the draw must be of that platform.
 * `network`: the keyed hash of the network that made the draw (what the rule counts, decision 315);
 * `answerNetwork`: the answering one. A "worked" answer whose draw or answer came from the code's own
 * network is kept but never counted. `answerWindowMs`: a draw older than that is refused
 * (`too-old`). A refusal writes nothing.
 */
export async function recordCodeReport(
  input: {
    requestId: number;
    platformId: number | null;
    outcome: ReportOutcome;
    reason?: ReportReason | null;
    ipHash: string;
    network?: string | null;
    answerNetwork?: string | null;
    answerWindowMs?: number;
  },
  now = new Date(),
  db: DB = getDb(),
): Promise<ReportResult> {
  try {
    return await db.transaction().execute(async (trx): Promise<ReportResult> => {
      const draw = await trx
        .selectFrom("random_requests")
        .select(["id", "platform_id", "served_code_id", "created_at"])
        .where("id", "=", input.requestId)
        .executeTakeFirst();
      if (!draw) return { ok: false, reason: "unknown-draw" };
      if (input.answerWindowMs !== undefined && now.getTime() - Date.parse(draw.created_at) > input.answerWindowMs) {
        return { ok: false, reason: "too-old" };
      }
      if (input.platformId !== null && draw.platform_id !== input.platformId) return { ok: false, reason: "foreign-draw" };
      if (draw.served_code_id === null) return { ok: false, reason: "code-gone" };
      const answered = await trx
        .selectFrom("code_reports")
        .select("id")
        .where("random_request_id", "=", draw.id)
        .executeTakeFirst();
      if (answered) return { ok: false, reason: "already-answered" };
      const fromOwner =
        input.outcome === "worked" && (await fromOwnNetwork(draw.served_code_id, [input.network, input.answerNetwork], trx));
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
          network_hash: input.network ?? null,
          from_owner: fromOwner ? 1 : 0,
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

/** Whether one of these networks is the one the code was submitted from. */
async function fromOwnNetwork(codeId: number, networks: ReadonlyArray<string | null | undefined>, trx: DB): Promise<boolean> {
  const known = networks.filter((n): n is string => !!n);
  if (known.length === 0) return false;
  const code = await trx.selectFrom("referral_codes").select("owner_network_hash").where("id", "=", codeId).executeTakeFirst();
  return !!code?.owner_network_hash && known.includes(code.owner_network_hash);
}

/**
 * The answers the rule reads: a code's last PAUSE_RULE.window, newest first, after its last reset
 * (and up to `until`), its owner's own "worked" answers left out (decision 315).
 */
function countedAnswers(db: DB, codeId: number, range: { after: string | null; until?: string | null }) {
  let query = db
    .selectFrom("code_reports")
    .select(["outcome", "reason", "ip_hash", "network_hash"])
    .where("code_id", "=", codeId)
    .where("from_owner", "=", 0)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(sql.lit(PAUSE_RULE.window));
  if (range.after) query = query.where("created_at", ">", range.after);
  if (range.until) query = query.where("created_at", "<=", range.until);
  return query.execute();
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
  // failing code cannot come back by its owner's resume (a pause for reports its owner lifts once,
  // then only the admin).
  const ownerPaused = code?.is_active === 0 && code.paused_reason === "owner";
  if (!code || (code.is_active !== 1 && !ownerPaused)) return null;
  // Also true while a code is capped: its reset lies ahead, so no answer counts until it is back.
  const verdict = verdictOn(await countedAnswers(trx, codeId, { after: code.reports_reset_at }));
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

/**
 * What a pause for failing answers rests on, for its owner's page: among the answers the rule read
 * (the last PAUSE_RULE.window counted ones before the pause), how many failed, from how many drawing
 * networks, and why.
 */
export async function pauseEvidence(
  codeId: number,
  db: DB = getDb(),
): Promise<{ answers: number; failed: number; networks: number; reasons: Partial<Record<ReportReason | "none", number>> }> {
  const code = await db
    .selectFrom("referral_codes")
    .select(["paused_at", "reports_reset_at"])
    .where("id", "=", codeId)
    .executeTakeFirst();
  const rows = await countedAnswers(db, codeId, { after: code?.reports_reset_at ?? null, until: code?.paused_at ?? null });
  const failed = rows.filter((r) => r.outcome === "failed");
  const reasons: Partial<Record<ReportReason | "none", number>> = {};
  for (const r of failed) reasons[r.reason ?? "none"] = (reasons[r.reason ?? "none"] ?? 0) + 1;
  return {
    answers: rows.length,
    failed: failed.length,
    networks: new Set(failed.map((r) => r.network_hash ?? r.ip_hash)).size,
    reasons,
  };
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

/** When the admin is told about a network: failures on this many codes within this many days (decision 315). */
export const NETWORK_ALERT = { codes: 3, days: 7 } as const;

/**
 * The admin's alert: drawing networks whose failed answers hit at least NETWORK_ALERT.codes codes
 * over the last NETWORK_ALERT.days days, most codes first (at most 20). One range of
 * code_reports_created_idx: a week of answers.
 */
export async function listFailingNetworks(now = new Date(), db: DB = getDb()) {
  const since = new Date(now.getTime() - NETWORK_ALERT.days * 86_400_000).toISOString();
  const rows = await db
    .selectFrom("code_reports")
    .select((eb) => [
      "network_hash",
      eb.fn.count<number>("code_id").distinct().as("codes"),
      eb.fn.countAll<number>().as("failures"),
      eb.fn.max("created_at").as("last_at"),
    ])
    .where("created_at", ">=", since)
    .where("outcome", "=", "failed")
    .where("network_hash", "is not", null)
    .groupBy("network_hash")
    .having((eb) => eb.fn.count("code_id").distinct(), ">=", NETWORK_ALERT.codes)
    .orderBy("codes", "desc")
    .orderBy("last_at", "desc")
    .limit(20)
    .execute();
  return rows.map((r) => ({ network: r.network_hash!, codes: Number(r.codes), failures: Number(r.failures), lastAt: r.last_at }));
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
