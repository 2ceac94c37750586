import { sql } from "kysely";
import { getDb, getDialect, type DB } from "../client.server";

/**
 * Codes removed per transaction. Each takes its answers with it, and its draws' link. One statement
 * for every expired code held the only connection, and on SQLite the event loop, for 1.3 s with the
 * scale data set's 4,767 (the first pass after an admin turns the cleanup on, two years in); in
 * batches of 50 the longest pause was 80 ms on this machine (decision 284).
 */
const CLEANUP_BATCH = 50;

/** The advisory lock (class, key) of the cleanup job on PostgreSQL; draws use class 1901. */
const CLEANUP_LOCK = [1902, 1] as const;

export interface CleanupOptions {
  batch?: number;
  /** Pause between two batches, so draws and pages take their turn on the connection. */
  pauseMs?: number;
  /** Aborted when the server stops: the removal ends before its next batch (decision 294). */
  signal?: AbortSignal;
}

/** One batch of expired temporary codes, oldest expiry first (index referral_codes_expiry_idx). */
async function deleteExpiredBatch(now: Date, batch: number, db: DB): Promise<number> {
  const result = await db
    .deleteFrom("referral_codes")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("referral_codes")
        .select("id")
        .where("is_permanent", "=", 0)
        .where("expires_at", "is not", null)
        .where("expires_at", "<", now.toISOString())
        .orderBy("expires_at")
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * One batch as the in-server job runs it: on PostgreSQL, several processes run the job; each batch
 * holds an advisory lock for its transaction, and a process that finds it taken stops (null).
 * SQLite has one process: it always runs.
 */
async function deleteExpiredBatchOnce(now: Date, batch: number, db: DB): Promise<number | null> {
  if (getDialect() !== "postgres") return deleteExpiredBatch(now, batch, db);
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${sql.lit(CLEANUP_LOCK[0])}, ${sql.lit(CLEANUP_LOCK[1])}) as locked`.execute(trx);
    if (!rows[0]?.locked) return null;
    return deleteExpiredBatch(now, batch, trx);
  });
}

/**
 * Removes expired temporary codes (is_permanent = 0 and expires_at before `now`), in batches of
 * CLEANUP_BATCH codes, one transaction each, with a short pause between them. The in-server job
 * (when enable_auto_cleanup is 'true', through deleteExpiredTemporaryCodesOnce) and
 * `npm run db:cleanup` both call it. Draw logs keep their code snapshot (served_code_id becomes
 * null). Answers how many codes went; null when another process was running its pass (PostgreSQL)
 * before this one removed any.
 */
async function deleteExpired(now: Date, db: DB, { batch = CLEANUP_BATCH, pauseMs = 5, signal }: CleanupOptions, once: boolean) {
  let removed = 0;
  for (;;) {
    if (signal?.aborted) return removed;
    const step = once ? await deleteExpiredBatchOnce(now, batch, db) : await deleteExpiredBatch(now, batch, db);
    if (step === null) return removed > 0 ? removed : null;
    removed += step;
    if (step < batch) return removed;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

export async function deleteExpiredTemporaryCodes(
  now = new Date(),
  db: DB = getDb(),
  options: CleanupOptions = {},
): Promise<number> {
  return (await deleteExpired(now, db, options, false)) ?? 0;
}

/** The in-server job's pass: the same removal, run by one process at a time (see deleteExpiredBatchOnce). */
export async function deleteExpiredTemporaryCodesOnce(
  now = new Date(),
  db: DB = getDb(),
  options: CleanupOptions = {},
): Promise<number | null> {
  return deleteExpired(now, db, options, true);
}

/** Read straight from the table at each run (hourly): a CLI or another process may have changed it. */
export async function isAutoCleanupEnabled(db: DB = getDb()): Promise<boolean> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", "enable_auto_cleanup").executeTakeFirst();
  return row?.value === "true";
}
