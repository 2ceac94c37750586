import crypto from "node:crypto";
import { getDb, type DB } from "../client.server";

/**
 * The keys of the address pseudonyms (decision 322): one random key per calendar month (UTC),
 * made by whichever process needs it first (the first insert wins, every process then reads the
 * same), and removed by the retention job once its month is over. A key is never derived from
 * another secret: once its row is gone, a pseudonym made with it cannot be linked to an address by
 * anyone, the site's operator included.
 */

/** `YYYY-MM` of `now`, UTC: the month whose key is in use. */
export function pseudonymPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** The key of `now`'s month, made on first use. */
export async function pseudonymKey(now: Date, db: DB = getDb()): Promise<Buffer> {
  const period = pseudonymPeriod(now);
  const read = () => db.selectFrom("pseudonym_keys").select("secret").where("period", "=", period).executeTakeFirst();
  let row = await read();
  if (!row) {
    await db
      .insertInto("pseudonym_keys")
      .values({ period, secret: crypto.randomBytes(32).toString("base64url"), created_at: now.toISOString() })
      .onConflict((oc) => oc.column("period").doNothing())
      .execute();
    row = await read();
  }
  if (!row) throw new Error(`pseudonym key for ${period} could not be made`);
  return Buffer.from(row.secret, "base64url");
}

/** Removes every key of a month before `now`'s; answers how many went. */
export async function dropPastPseudonymKeys(now: Date, db: DB = getDb()): Promise<number> {
  const result = await db.deleteFrom("pseudonym_keys").where("period", "<", pseudonymPeriod(now)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
