import { sql } from "kysely";
import { getDb, type DB } from "../client.server";
import type { ReportReason } from "../schema";

/**
 * Freshness of the trust loop's answers, each figure one indexed read: "last worked" is a seek on
 * code_reports (platform_id, outcome, created_at); tallies read one code's answers of a bounded window.
 */

/** When an answer last said a code of this platform worked (null: never). */
export async function platformLastWorkedAt(platformId: number, db: DB = getDb()): Promise<string | null> {
  const row = await db
    .selectFrom("code_reports")
    .select("created_at")
    .where("platform_id", "=", platformId)
    .where("outcome", "=", "worked")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** The same for many platforms: one seek per platform (a correlated subquery), never a scan of answers. */
export async function lastWorkedByPlatform(db: DB = getDb()): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom("platforms as p")
    .select((eb) => [
      "p.id",
      eb
        .selectFrom("code_reports as r")
        .select("r.created_at")
        .whereRef("r.platform_id", "=", "p.id")
        .where("r.outcome", "=", "worked")
        .orderBy("r.created_at", "desc")
        .limit(1)
        .as("last_worked_at"),
    ])
    .where("p.is_active", "=", 1)
    .execute();
  return new Map(rows.filter((r) => r.last_worked_at).map((r) => [r.id, r.last_worked_at!]));
}

export type ReasonTally = Partial<Record<ReportReason | "none", number>>;

/** Why these codes' answers failed since `since` (failures without a reason under `none`), per code. */
export async function failureReasonsOf(codeIds: number[], since: string, db: DB = getDb()): Promise<Map<number, ReasonTally>> {
  const tallies = new Map<number, ReasonTally>();
  if (codeIds.length === 0) return tallies;
  const rows = await db
    .selectFrom("code_reports")
    .select(["code_id", "reason", sql<number>`count(*)`.as("n")])
    .where("code_id", "in", codeIds)
    .where("created_at", ">=", since)
    .where("outcome", "=", "failed")
    .groupBy(["code_id", "reason"])
    .execute();
  for (const r of rows) {
    const tally = tallies.get(r.code_id) ?? {};
    tally[r.reason ?? "none"] = Number(r.n);
    tallies.set(r.code_id, tally);
  }
  return tallies;
}

/**
 * How many answers since `since` said a platform's code failed for the visitor's own situation
 * (wrong region, conditions not met): hints for the next visitors. A range of the
 * (platform_id, outcome, created_at) index.
 */
export async function platformHintCounts(platformId: number, since: string, db: DB = getDb()) {
  const rows = await db
    .selectFrom("code_reports")
    .select(["reason", sql<number>`count(*)`.as("n")])
    .where("platform_id", "=", platformId)
    .where("outcome", "=", "failed")
    .where("created_at", ">=", since)
    .where("reason", "in", ["wrong-region", "conditions-not-met"])
    .groupBy("reason")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.n)])) as Partial<
    Record<"wrong-region" | "conditions-not-met", number>
  >;
}

/** Codes on a monthly cap now, soonest back last (admin), each with its answers' reasons that led there. */
export async function listCappedCodes(now = new Date(), db: DB = getDb()) {
  const at = now.toISOString();
  return db
    .selectFrom("referral_codes as c")
    .innerJoin("platforms as p", "p.id", "c.platform_id")
    .select(["c.id", "c.code", "c.capped_until", "c.times_served", "p.name as platform_name", "p.slug as platform_slug"])
    .where("c.capped_until", ">", at)
    .orderBy("c.capped_until", "desc")
    .orderBy("c.id", "desc")
    .limit(200)
    .execute();
}
