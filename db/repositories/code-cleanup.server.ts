import { sql } from "kysely";
import { getDb, getDialect, type DB } from "../client.server";

/**
 * Removes expired temporary codes (is_permanent = 0 and expires_at before `now`). The one place
 * for it: the in-server job (when enable_auto_cleanup is 'true') and `npm run db:cleanup` both
 * call this. Draw logs keep their code snapshot (served_code_id becomes null).
 */
export async function deleteExpiredTemporaryCodes(now = new Date(), db: DB = getDb()): Promise<number> {
  const result = await db
    .deleteFrom("referral_codes")
    .where("is_permanent", "=", 0)
    .where("expires_at", "is not", null)
    .where("expires_at", "<", now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The advisory lock (class, key) of the cleanup job on PostgreSQL; draws use class 1901. */
const CLEANUP_LOCK = [1902, 1] as const;

/**
 * The in-server job's pass: the same removal, run by one process at a time. On PostgreSQL several
 * processes run the job; the pass holds an advisory lock for its transaction, and a process that
 * finds it taken skips its pass (null). SQLite has one process: it always runs.
 */
export async function deleteExpiredTemporaryCodesOnce(now = new Date(), db: DB = getDb()): Promise<number | null> {
  if (getDialect() !== "postgres") return deleteExpiredTemporaryCodes(now, db);
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${sql.lit(CLEANUP_LOCK[0])}, ${sql.lit(CLEANUP_LOCK[1])}) as locked`.execute(trx);
    if (!rows[0]?.locked) return null;
    return deleteExpiredTemporaryCodes(now, trx);
  });
}

/** Read straight from the table at each run (hourly): a CLI or another process may have changed it. */
export async function isAutoCleanupEnabled(db: DB = getDb()): Promise<boolean> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", "enable_auto_cleanup").executeTakeFirst();
  return row?.value === "true";
}
