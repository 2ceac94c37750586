import { getDb, type DB } from "../client.server";

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

/** Read straight from the table at each run (hourly): a CLI or another process may have changed it. */
export async function isAutoCleanupEnabled(db: DB = getDb()): Promise<boolean> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", "enable_auto_cleanup").executeTakeFirst();
  return row?.value === "true";
}
