import { getDb, type DB } from "../client.server";
import { selectCodeWithPlatform } from "./codes.server";
import { writeEntering } from "./rotation.server";

/**
 * The owner's private page (/my-code/{token}): the code is found by the hash of the token only.
 * Owners pause and resume their own code, and may bring back once a code paused after failing
 * answers; a code deactivated by an admin is not theirs to bring back.
 */
export async function getCodeByOwnerHash(ownerTokenHash: string, db: DB = getDb()) {
  return selectCodeWithPlatform(db)
    .select([
      "c.times_served",
      "c.last_served_at",
      "c.paused_reason",
      "c.paused_at",
      "c.capped_until",
      "c.owner_restores",
      "c.platform_id",
      "c.created_at",
      "p.name as platform_name",
      "p.slug as platform_slug",
      "p.is_active as platform_active",
    ])
    .where("c.owner_token_hash", "=", ownerTokenHash)
    .executeTakeFirst();
}

/** Out of the rotation by its owner's choice. Only an active code can be paused this way. */
export async function pauseOwnCode(id: number, now = new Date(), db: DB = getDb()): Promise<boolean> {
  const result = await db
    .updateTable("referral_codes")
    .set({ is_active: 0, paused_reason: "owner", paused_at: now.toISOString() })
    .where("id", "=", id)
    .where("is_active", "=", 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Back into the rotation, at the level of the others (rotation.server.ts, rule 4): only a pause its owner made. */
export async function resumeOwnCode(id: number, now = new Date(), db: DB = getDb()): Promise<boolean> {
  const result = await writeEntering(db, id, now, (trx) =>
    trx
      .updateTable("referral_codes")
      .set({ is_active: 1, paused_reason: null, paused_at: null })
      .where("id", "=", id)
      .where("paused_reason", "=", "owner")
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Back into the rotation by its owner after a pause for failing answers: once per code (decision
 * 315); after that only the admin. Answers so far no longer count, as after an admin's restore.
 */
export async function restoreOwnReportedCode(id: number, now = new Date(), db: DB = getDb()): Promise<boolean> {
  const result = await db
    .updateTable("referral_codes")
    .set((eb) => ({
      is_active: 1,
      paused_reason: null,
      paused_at: null,
      reports_reset_at: now.toISOString(),
      owner_restores: eb("owner_restores", "+", 1),
    }))
    .where("id", "=", id)
    .where("paused_reason", "=", "reports")
    .where("owner_restores", "<", 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes the code (its answers go with it; draw log rows keep their snapshot). */
export async function deleteOwnCode(id: number, db: DB = getDb()): Promise<boolean> {
  const result = await db.deleteFrom("referral_codes").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
